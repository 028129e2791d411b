import { HttpError, defineRoute, type RouteDefinition, type VigieContext } from '@vigie/kernel';
import { pathParam } from '@vigie/input';
import { AlarmListService } from './alarm-list.js';
import { AlarmTimeline } from './alarm-timeline.js';
import { alarmCountersQuerySchema, alarmCountersSchema, alarmListQuerySchema, alarmListSchema, alarmOutputSchema, errorSchema, maxAlarmPage, timelineQuerySchema, timelineSchema } from './schemas.js';

const tags = ['alarms'];
const service = (ctx: VigieContext) => ctx.state.scope.resolve(AlarmListService);

export const alarmRoutes: RouteDefinition[] = [
  defineRoute({
    method: 'GET',
    path: '/alerts/get-alarms',
    right: 'alarms:read',
    summary: 'List alarms',
    description:
      'The original clients\' alarm list. Open alarms by default (`opened=true`, `resolved=false`); `tstart`/`tstop` keep alarms ' +
      'created by `tstop` and open or resolved at or after `tstart`; `filter` is a MongoDB-style filter on alarm fields (JSON text, ' +
      'safe operators only); `search` looks for a case-insensitive substring in the entity id, display name, output, connector, ' +
      'component, resource and the entity\'s infos (names and values); sorted by `sort_key` (up to three comma-separated fields, ' +
      `default \`t\`) and \`sort_dir\` (DESC by default; one for all keys or one each); \`limit\` 1 to ${maxAlarmPage} ` +
      '(default 50) from `skip`, or the 1-based `page` of `limit` alarms; steps only with `with_steps=true`. `first` is the ' +
      '1-based rank of the first alarm of the page.',
    tags,
    querySchema: alarmListQuerySchema,
    // Each parameter once: `?limit=1&limit=2` is ambiguous, not the first or the last of them.
    queryOptions: { singleValued: true },
    responses: {
      200: { description: '`{total, data: [{alarms, total, first, last}], success}`', schema: alarmListSchema },
      400: { description: 'Invalid query value or filter', schema: errorSchema },
    },
    handler: async (ctx, { query }) => {
      const page = await service(ctx).list(query);
      return { total: 1, data: [page], success: true };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v2/alarm-counters',
    right: 'alarms:read',
    summary: 'Count alarms per state, acknowledged, snoozed and under pbehavior',
    description: 'The filter of `GET /alerts/get-alarms` (`tstart`, `tstop`, `opened`, `resolved`, `filter`, `search`); open alarms by default.',
    tags,
    querySchema: alarmCountersQuerySchema,
    queryOptions: { singleValued: true },
    responses: {
      200: { description: '`{total, by_state: {0, 1, 2, 3}, acknowledged, unacknowledged, snoozed, under_pbehavior}`', schema: alarmCountersSchema },
      400: { description: 'Invalid query value or filter', schema: errorSchema },
    },
    handler: (ctx, { query }) => service(ctx).counters(query),
  }),
  // Before `/api/v2/alarms/*id`, which would take `<id>/steps` as an id.
  defineRoute({
    method: 'GET',
    path: '/api/v2/alarms/:id/steps',
    right: 'alarms:read',
    summary: 'The timeline of an alarm: its steps, paged',
    description:
      '`page` (from 1) and `limit` (1 to 2000, default 50); `type` keeps the listed step types; `sort` `asc` (oldest first, default) ' +
      'or `desc`; `with_children=true` merges the steps of a meta-alarm\'s children (each step then names its `alarm_id` and ' +
      '`entity_id`). An alarm keeps at most 2,000 steps, its first one and the newest: `folded_steps` says how many were dropped.',
    tags,
    querySchema: timelineQuerySchema,
    queryOptions: { singleValued: true },
    responses: {
      200: { description: '`{steps, total, page, limit, folded_steps}`', schema: timelineSchema },
      400: { description: 'Invalid query value', schema: errorSchema },
      404: { description: '`No alarm with id <id>`', schema: errorSchema },
    },
    handler: (ctx, { query }) => ctx.state.scope.resolve(AlarmTimeline).page(pathParam(ctx, 'id'), query),
  }),
  {
    method: 'GET',
    path: '/api/v2/alarms/*id',
    right: 'alarms:read',
    summary: 'Get one alarm with its steps',
    tags,
    responses: {
      200: { description: 'The alarm `{_id, t, d, v, entity}`, steps included', schema: alarmOutputSchema },
      404: { description: '`No alarm with id <id>`', schema: errorSchema },
    },
    handler: async (ctx) => {
      const id = pathParam(ctx, 'id');
      const alarm = await service(ctx).get(id);
      if (!alarm) throw new HttpError(404, `No alarm with id ${id}`, { name: 'not_found' });
      return alarm;
    },
  },
];
