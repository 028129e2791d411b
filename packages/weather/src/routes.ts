import { array } from 'yup';
import type { InferType } from 'yup';
import { HttpError, defineRoute, type RouteDefinition } from '@vigie/kernel';
import { inputBounds, pathParam } from '@vigie/input';
import { errorSchema, watchersQuerySchema, weatherEntrySchema } from './schemas.js';
import { type WatcherPage, WeatherService } from './weather-service.js';

/** The original's page size when `limit` is not an integer. */
const fallbackLimit = 120;

/** `orderby` names a field (`name`, `infos.site.value`), never an operator. */
const fieldPath = /^[A-Za-z0-9_][A-Za-z0-9_ -]*(\.[A-Za-z0-9_][A-Za-z0-9_ -]*)*$/;

/** Integers as Python's int() reads them; null for anything else. */
function integer(text: string | undefined): number | null {
  return text !== undefined && /^\s*[+-]?[0-9]{1,15}\s*$/.test(text) ? Number(text) : null;
}

/** `start`, `limit`, `orderby`, `direction`, read as leniently as the original but never into a server error. */
function readPage(query: InferType<typeof watchersQuerySchema>): WatcherPage {
  const skip = integer(query.start) ?? 0;
  if (skip < 0) throw new HttpError(400, 'start must not be negative');
  let limit: number | undefined;
  if (query.limit !== undefined && query.limit !== '') {
    limit = integer(query.limit) ?? fallbackLimit;
    if (limit < 1) throw new HttpError(400, 'limit must be a positive integer');
  }
  if (query.orderby === undefined || query.orderby === '') return { skip, limit };
  if (!fieldPath.test(query.orderby)) throw new HttpError(400, 'orderby must be a field name, such as name or infos.site.value');
  if (query.direction !== 'ASC' && query.direction !== 'DESC') {
    throw new HttpError(400, `Direction must be 'ASC' or 'DESC' not ${query.direction ?? 'None'}.`, { name: 'Can not parse sort direction.' });
  }
  return { skip, limit, sort: { field: query.orderby, direction: query.direction === 'ASC' ? 1 : -1 } };
}

function parseFilter(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new HttpError(400, `Invalid filter: ${(err as Error).message}`);
  }
}

export const weatherRoutes: RouteDefinition[] = [
  defineRoute({
    method: 'GET',
    path: '/api/v2/weather/watchers/*target',
    right: 'weather:read',
    summary: 'Watcher tiles matching a filter, or the dependencies of one watcher',
    description:
      'When `target` is a JSON object (`{…}`), it filters the watcher entities of `default_entities` (safe MongoDB operators; ' +
      'fields such as `name` and `infos.<key>.value`) and the answer is one tile per watcher, paginated by `start` and `limit`, ' +
      'sorted by `orderby` with `direction` `ASC` or `DESC`. The filter may also hold `active_pb_some`, `active_pb_all`, ' +
      '`active_pb_watcher`, `active_pb_type`/`active_pb_include_type`, `active_pb_exclude_type`, `tileColor`, `tileIcon` and ' +
      '`tileSecondaryIcon`, checked against each tile after pagination. Otherwise `target` is a watcher id (slashes allowed) and ' +
      'the answer lists its enabled dependencies, sorted by name.',
    tags: ['weather'],
    querySchema: watchersQuerySchema,
    responses: {
      200: { description: 'Watcher tiles (filter) or dependency entries (watcher id)', schema: array(weatherEntrySchema).required() },
      400: { description: 'Invalid filter or query parameter', schema: errorSchema },
      404: { description: 'Unknown watcher (`resource_not_found`) or unreadable legacy `mfilter` (`filter_not_found`)', schema: errorSchema },
    },
    handler: async (ctx, { query }) => {
      const service = ctx.state.scope.resolve(WeatherService);
      // A filter may stand where a watcher id does: it gets the bound of a filter sent as text.
      const target = pathParam(ctx, 'target', inputBounds.longTextLength);
      if (/^\{.*\}$/s.test(target)) return service.watchers(parseFilter(target), readPage(query));
      return service.dependencies(target);
    },
  }),
];
