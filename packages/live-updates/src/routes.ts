import { alarmListFilter, alarmSearchRef } from '@vigie/alarms';
import { defineRoute, type RouteDefinition, type VigieContext } from '@vigie/kernel';
import { BroadcastFeed } from './broadcast-feed.js';
import { alarmNoticeSelector, AlarmStreamHub, BroadcastStreamHub, StreamService } from './stream-service.js';
import { alarmStreamQuerySchema, errorSchema } from './schemas.js';
import { sseFrame, type SseConnection } from './sse-connection.js';

/** `Last-Event-ID` as sent (ids this server gives are short; anything longer cannot be one of them). */
function lastEventId(ctx: VigieContext): string | undefined {
  const header = ctx.get('Last-Event-ID');
  return header === '' ? undefined : header.slice(0, 64);
}

const streamResponses = (what: string) => ({
  200: { description: `\`text/event-stream\`: ${what}; a \`: heartbeat\` comment every \`[server] stream_heartbeat_ms\`` },
  503: { description: '`too many open streams (<n>); try again later` past `[server] stream_max_connections`', schema: errorSchema },
});

export const liveUpdateRoutes: RouteDefinition[] = [
  defineRoute({
    method: 'GET',
    path: '/api/v2/alarms/stream',
    right: 'alarms:read',
    summary: 'Live alarm changes (server-sent events)',
    description:
      'Each creation, change and resolution of an alarm selected by the query (the selection of `GET /alerts/get-alarms`: ' +
      '`opened`, `resolved`, `tstart`, `tstop`, `filter`, `search`) as one message `{type: create|change|resolve, alarm: {_id, t, d, v}}` ' +
      '(steps left out), with an id, when the alarm matches the selection after the change (resolutions reach a stream of open alarms too; ' +
      '`search` as in the list, the entity\'s infos included, as last read), ' +
      'and `{type: leave, alarm}` when a change makes an alarm that matched stop matching (a state filter, and its state went down). Reconnecting with `Last-Event-ID` sends what was ' +
      'missed, in order, once; an id too old for the replay window (`[server] stream_replay_events`) or given by another node or an ' +
      'earlier run gets a `reload` event instead: read the list again, then follow the stream. A client that does not keep up is ' +
      'disconnected once `[server] stream_queue_events` messages wait for it.',
    tags: ['alarms'],
    querySchema: alarmStreamQuerySchema,
    queryOptions: { singleValued: true },
    responses: { ...streamResponses('alarm changes'), 400: { description: 'Invalid query value or filter', schema: errorSchema } },
    handler: async (ctx, { query }) => {
      // The filter is checked before the stream opens (a 400 then); streams with the same selection share one selector.
      alarmListFilter(query);
      const key = JSON.stringify(query);
      const streams = ctx.state.scope.resolve(StreamService);
      const hub = ctx.state.scope.resolve(AlarmStreamHub);
      const search = await ctx.state.scope.resolve(alarmSearchRef).live(query.search);
      let connection: SseConnection;
      try {
        connection = streams.open(ctx);
      } catch (err) {
        search.stop();
        throw err;
      }
      connection.onClose(search.stop);
      const problem = hub.subscribe(connection, key, () => alarmNoticeSelector(query, search.test), lastEventId(ctx));
      if (problem) {
        streams.reload(
          connection,
          hub.lastId,
          problem === 'expired' ? 'the changes since Last-Event-ID are no longer kept' : 'Last-Event-ID is not an id of this stream (another node, or before a restart)',
        );
      }
    },
  }),
  {
    method: 'GET',
    path: '/api/v2/broadcast-message/stream',
    right: 'broadcast:read',
    summary: 'Live active broadcast messages (server-sent events)',
    description:
      'The broadcast messages shown now (`GET /api/v2/broadcast-message` within their window), as one JSON list per message: ' +
      'first when the stream opens, then each time the list changes (a message created, changed or deleted, a window opening ' +
      'or ending), within a second.',
    tags: ['broadcast'],
    responses: streamResponses('the list of active messages'),
    handler: (ctx) => {
      const hub = ctx.state.scope.resolve(BroadcastStreamHub);
      const connection = ctx.state.scope.resolve(StreamService).open(ctx);
      connection.write(sseFrame(hub.lastId, undefined, ctx.state.scope.resolve(BroadcastFeed).current), 1);
      hub.subscribe(connection, 'all', () => () => 0);
    },
  },
];
