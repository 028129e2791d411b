import { HttpError, defineRoute, type RouteDefinition, type VigieContext } from '@vigie/kernel';
import { pathParam } from '@vigie/input';
import { ExportService } from './export-service.js';
import type { ExportType } from './export-task.js';
import { alarmExportBodySchema, columnsAlias, entityExportBodySchema, errorSchema, exportStatusSchema, maxColumns } from './schemas.js';

const service = (ctx: VigieContext) => ctx.state.scope.resolve(ExportService);
const author = (ctx: VigieContext) => ctx.state.user?.name ?? 'system';

/**
 * Starting an export reads a whole selection at once: a right of its own. Following one and fetching its file need only
 * the reading right of what it holds (whoever may read the alarms may read them as CSV).
 */
const exportRight = { alarm: 'alarms:export', entity: 'entities:export' } as const;
const readRight = { alarm: 'alarms:read', entity: 'entities:read' } as const;

function notFound(type: ExportType, id: string): HttpError {
  return new HttpError(404, `no ${type} export with id ${id}`, { name: 'not_found' });
}

/** The status and download routes of one kind of export. */
function exportRoutes(type: ExportType, base: string, what: string): RouteDefinition[] {
  const tags = [type === 'alarm' ? 'alarms' : 'context-graph'];
  const right = readRight[type];
  return [
    {
      method: 'GET',
      path: `${base}/:id`,
      right,
      summary: `Progress of ${what} export`,
      tags,
      responses: {
        200: { description: '`{_id, type, status, rows_done, total, created, finished, error}`', schema: exportStatusSchema },
        404: { description: `\`no ${type} export with id <id>\``, schema: errorSchema },
      },
      handler: async (ctx) => {
        const id = pathParam(ctx, 'id');
        const status = await service(ctx).status(type, id);
        if (!status) throw notFound(type, id);
        return status;
      },
    },
    {
      method: 'GET',
      path: `${base}/:id/download`,
      right,
      summary: `The CSV file of ${what} export`,
      description: 'RFC 4180 CSV in UTF-8 (CRLF line ends, a header line of the column labels); a cell starting with `=`, `+`, `-` (but a number), `@`, a tab or a carriage return is prefixed with `\'` so that spreadsheets do not run it as a formula.',
      tags,
      responses: {
        200: { description: '`text/csv`' },
        404: { description: `\`no ${type} export with id <id>\``, schema: errorSchema },
        409: { description: '`export <id> is not finished (<status>)`', schema: errorSchema },
      },
      handler: async (ctx) => {
        const id = pathParam(ctx, 'id');
        const exports = service(ctx);
        const task = await exports.task(type, id);
        if (!task) throw notFound(type, id);
        // An export finished before files were kept in the store has no size: its file is not to be had.
        if (task.status !== 'done' || task.size === undefined) throw new HttpError(409, `export ${id} is not finished (${task.status})`, { name: 'conflict' });
        ctx.set('Content-Type', 'text/csv; charset=utf-8');
        ctx.set('Content-Disposition', `attachment; filename="${type}s-${id}.csv"`);
        ctx.length = task.size;
        ctx.body = exports.file(task);
      },
    },
  ];
}

const startResponses = (type: ExportType) => ({
  200: { description: 'The export as started: `{_id, type, status: pending, rows_done: 0, total: null, …}`', schema: exportStatusSchema },
  400: { description: 'No body (`The request body is empty`), invalid JSON, an invalid field (`<field> …`) or filter (`Invalid filter: <reason>`)', schema: errorSchema },
  415: { description: `A body that is not JSON (the ${type} export takes JSON only)`, schema: errorSchema },
});

export const exportsRoutes: RouteDefinition[] = [
  defineRoute({
    method: 'POST',
    path: '/api/v2/alarm-export',
    right: exportRight.alarm,
    summary: 'Start an alarm export (CSV)',
    description:
      'The selection of `GET /alerts/get-alarms` (`opened`, `resolved`, `tstart`, `tstop`, `filter` as an object or JSON text, `search`) ' +
      `and \`columns\` (1 to ${maxColumns}; \`fields\` is accepted for it, as the original named them): field paths such as \`d\` or ` +
      '`v.state.val`, or `{name, label}`; `separator` `comma` (default), `semicolon`, `tab` or `space`. A durable job writes the ' +
      'file; follow it with `GET /api/v2/alarm-export/<id>` and fetch it from `…/download` once `status` is `done`.',
    tags: ['alarms'],
    body: { required: true },
    prepareBody: columnsAlias,
    requestSchema: alarmExportBodySchema,
    responses: startResponses('alarm'),
    handler: (ctx, { body }) => service(ctx).startAlarmExport(body, author(ctx)),
  }),
  ...exportRoutes('alarm', '/api/v2/alarm-export', 'an alarm'),
  defineRoute({
    method: 'POST',
    path: '/api/v2/entity-export',
    right: exportRight.entity,
    summary: 'Start an entity export (CSV)',
    description:
      `A \`filter\` on entities (an object or JSON text; safe operators only) and \`columns\` (1 to ${maxColumns}): field paths such as ` +
      '`_id`, `type` or `infos.site.value`, or `{name, label}`. Followed and fetched as the alarm export.',
    tags: ['context-graph'],
    body: { required: true },
    prepareBody: columnsAlias,
    requestSchema: entityExportBodySchema,
    responses: startResponses('entity'),
    handler: (ctx, { body }) => service(ctx).startEntityExport(body, author(ctx)),
  }),
  ...exportRoutes('entity', '/api/v2/entity-export', 'an entity'),
];
