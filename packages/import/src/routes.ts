import { ErrorCodes, VigieError, type HttpMethod, type RouteDefinition, type VigieContext } from '@vigie/kernel';
import { pathParam } from '@vigie/input';
import type { BodyFormat } from './import-document.js';
import { publicStatus, ImportRepository } from './import-repository.js';
import { errorSchema, importRequestSchema, importStatusSchema, submissionSchema } from './schemas.js';
import { ImportSubmission } from './submission-service.js';

const tags = ['import'];
const importPath = '/api/contextgraph/import';

/** The body's encoding, from its Content-Type; the body itself is read by the submission, as a stream. */
function bodyFormat(ctx: VigieContext): BodyFormat {
  const hasBody = (ctx.request.length ?? 0) > 0 || ctx.get('transfer-encoding') !== '';
  if (!hasBody) throw new VigieError(ErrorCodes.BodyEmpty, 'the request body is empty');
  const encoding = ctx.get('content-encoding').toLowerCase();
  if (encoding !== '' && encoding !== 'identity') throw new VigieError(ErrorCodes.BodyUnsupportedType, `unsupported content encoding ${encoding}`);
  if (ctx.request.is('application/json', 'application/*+json')) return 'json';
  if (ctx.request.is('application/x-www-form-urlencoded')) return 'form';
  throw new VigieError(ErrorCodes.BodyUnsupportedType, `unsupported content type ${ctx.get('content-type') || '(none)'}`);
}

const submitRoute = (method: HttpMethod): RouteDefinition => ({
  method,
  path: importPath,
  right: 'import:write',
  summary: 'Submit a context graph import',
  description:
    'The body is written to a file, up to `[import] max_body_size` (512mb by default), and processed in the background, one import ' +
    'at a time in submission order. A malformed document is not refused here: the import ends `failed` with the reason. ' +
    (method === 'POST' ? 'POST is accepted as the spec sample sends it; PUT is the documented method.' : 'POST is accepted too.'),
  tags,
  body: false,
  requestDoc: importRequestSchema,
  responses: {
    200: { description: 'The import id', schema: submissionSchema },
    400: { description: 'Empty body', schema: errorSchema },
    413: { description: 'Body larger than [import] max_body_size', schema: errorSchema },
    415: { description: 'Neither JSON nor a form, or a compressed body', schema: errorSchema },
  },
  handler: async (ctx) => {
    const format = bodyFormat(ctx);
    const importId = await ctx.state.scope.resolve(ImportSubmission).submit(format, ctx.req, ctx.request.length);
    return { total: 1, data: [{ import_id: importId }], success: true };
  },
});

export const importRoutes: RouteDefinition[] = [
  submitRoute('PUT'),
  submitRoute('POST'),
  {
    method: 'GET',
    path: `${importPath}/status/*id`,
    right: 'import:read',
    summary: 'Status of a context graph import',
    description: 'An unknown id answers 200 `{_id, status: "not_found"}`.',
    tags,
    responses: { 200: { description: 'The import status record', schema: importStatusSchema } },
    handler: async (ctx) => {
      const id = pathParam(ctx, 'id');
      const record = await ctx.state.scope.resolve(ImportRepository).get(id);
      return record ? publicStatus(record) : { _id: id, status: 'not_found' };
    },
  },
];
