import { HttpError, defineRoute, type Filter, type RouteDefinition, type VigieContext } from '@vigie/kernel';
import { pathParam } from '@vigie/input';
import { publicEntity } from './entity.js';
import { EntityRepository } from './entity-repository.js';
import { entityListQuerySchema, entityListSchema, entitySchema, errorSchema, maxPageSize } from './schemas.js';

const tags = ['context-graph'];

const repository = (ctx: VigieContext) => ctx.state.scope.resolve(EntityRepository);

/** The `filter` query parameter: JSON text; its operators are checked by the repository. */
function parseFilter(text: string | undefined): Filter {
  if (text === undefined || text.trim() === '') return {};
  try {
    return JSON.parse(text) as Filter;
  } catch (err) {
    throw new HttpError(400, `Invalid filter: not valid JSON (${(err as Error).message})`);
  }
}

/** Vigie additions (not in the spec): users need to see what an import did. */
export const entityRoutes: RouteDefinition[] = [
  defineRoute({
    method: 'GET',
    path: '/api/v2/entities',
    right: 'entities:read',
    summary: 'List entities of the context graph',
    description:
      `Vigie addition. Entities matching \`filter\` (MongoDB-style, safe operators only: $and $or $nor $not $eq $ne $gt $gte $lt $lte ` +
      `$in $nin $exists $regex $options $all $elemMatch $size), sorted by \`sort\` then \`_id\`, \`limit\` (1 to ${maxPageSize}, ` +
      'default 100) from `start`.',
    tags,
    querySchema: entityListQuerySchema,
    // Each parameter once: `?limit=1&limit=2` is ambiguous, not the first or the last of them.
    queryOptions: { singleValued: true },
    responses: {
      200: { description: '`total` matching, `count` in this page, `data` the page', schema: entityListSchema },
      400: { description: 'Invalid query or filter', schema: errorSchema },
    },
    handler: async (ctx, { query }) => {
      const filter = parseFilter(query.filter);
      const entities = repository(ctx);
      const total = await entities.count(filter);
      const page = await entities.find({ filter, sort: { [query.sort]: query.direction === 'ASC' ? 1 : -1 }, skip: query.start, limit: query.limit });
      return { total, count: page.length, data: page.map(publicEntity) };
    },
  }),
  {
    method: 'GET',
    path: '/api/v2/entities/*id',
    right: 'entities:read',
    summary: 'Get an entity of the context graph',
    description: 'Vigie addition. The id is the rest of the path: `/api/v2/entities/disk/host` and `/api/v2/entities/disk%2Fhost` both name `disk/host`.',
    tags,
    responses: {
      200: { description: 'The entity', schema: entitySchema },
      404: { description: '`No entity with id <id>`', schema: errorSchema },
    },
    handler: async (ctx) => {
      const id = pathParam(ctx, 'id');
      const entity = await repository(ctx).get(id);
      if (!entity) throw new HttpError(404, `No entity with id ${id}`);
      return publicEntity(entity);
    },
  },
];
