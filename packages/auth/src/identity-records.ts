import { array, boolean, number, object, string, type Schema, type StringSchema } from 'yup';
import { HttpError, defineRoute, type RouteDefinition, type VigieContext } from '@vigie/kernel';
import { requestBody } from '@vigie/input';

/**
 * The answer of the original's `/rest/object/…` routes (LDAP and CAS configuration): `{total, data: [record],
 * success: true}`, with `data` empty when nothing is stored.
 */
export function objectEnvelope<T>(record: T | null): { total: number; data: T[]; success: true } {
  return record === null ? { total: 0, data: [], success: true } : { total: 1, data: [record], success: true };
}

/** The OpenAPI schema of that answer. */
export function objectEnvelopeSchema(record: Schema): Schema {
  return object({ total: number().required(), data: array(record).required(), success: boolean().required() });
}

/**
 * A base URL of an identity-provider record (a server, Vigie's external URL): http(s), without credentials, query
 * or fragment, at most 2048 characters. Refused with `<field> must be an http:// or https:// URL`.
 */
export function baseUrlField(field: string): StringSchema<string | undefined> {
  return string()
    .max(2048)
    .test(`${field}-url`, `${field} must be an http:// or https:// URL`, (value) => {
      if (value === undefined) return true;
      try {
        const url = new URL(value);
        return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === '' && url.search === '' && url.hash === '';
      } catch {
        return false;
      }
    });
}

/** What read routes show instead of a stored secret. */
export const maskedSecret = '********';

/** Where a single identity-provider record (LDAP, CAS) is kept: written whole, read with its secrets masked. */
export interface IdentityRecordStore<I> {
  save(input: I): Promise<unknown>;
  get(): Promise<unknown>;
}

export interface IdentityRecordRoutesSpec<I> {
  /** `/rest/object/<type>/<id>`. */
  path: string;
  /** Names the record in the refusal `the body must be the <name> record (a JSON object)`. */
  name: string;
  /** The input the POST stores, checked by the kernel. */
  inputSchema: Schema<I>;
  /** The record as answered (OpenAPI). */
  recordSchema: Schema;
  post: { summary: string; description: string; answer: string };
  get: { summary: string; description?: string; answer: string };
  tags: readonly string[];
  store(ctx: VigieContext): IdentityRecordStore<I>;
}

const errorSchema = object({ name: string().required(), description: string().required() });

/**
 * The POST and GET of an identity provider's record in the original's `/rest/object/…` form (LDAP, CAS): only an
 * administrator writes it (the right `identity:write`: whoever may change it could point logins at a directory of
 * their own and sign on as anybody), the body must be a JSON object before its fields are checked, answers are
 * enveloped; reading it (secrets masked) takes `identity:read`.
 */
export function identityRecordRoutes<I>(spec: IdentityRecordRoutesSpec<I>): RouteDefinition[] {
  const { path, name, tags } = spec;
  return [
    defineRoute({
      method: 'POST',
      path,
      right: 'identity:write',
      summary: spec.post.summary,
      description: spec.post.description,
      tags,
      requestSchema: spec.inputSchema,
      responses: {
        200: { description: spec.post.answer, schema: objectEnvelopeSchema(spec.recordSchema) },
        400: { description: 'Invalid record: the description names the field', schema: errorSchema },
        403: { description: 'The user lacks the right `identity:write`', schema: errorSchema },
      },
      // What the body is, before its fields are checked.
      preValidation: (ctx) => {
        const body = requestBody(ctx);
        if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new HttpError(400, `the body must be the ${name} record (a JSON object)`);
      },
      handler: async (ctx, { body }) => objectEnvelope(await spec.store(ctx).save(body)),
    }),
    {
      method: 'GET',
      path,
      right: 'identity:read',
      summary: spec.get.summary,
      ...(spec.get.description === undefined ? {} : { description: spec.get.description }),
      tags,
      responses: { 200: { description: spec.get.answer, schema: objectEnvelopeSchema(spec.recordSchema) } },
      handler: async (ctx) => objectEnvelope(await spec.store(ctx).get()),
    },
  ];
}
