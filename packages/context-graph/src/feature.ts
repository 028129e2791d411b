import { defineFeature } from '@vigie/kernel';
import { contextGraphBridge } from './di.js';
import { contextGraphErrors } from './errors.js';
import type { EntityRepository } from './entity-repository.js';
import { entityRoutes } from './routes.js';

/**
 * The context graph: entities and their reciprocal impact/depends links in `default_entities`. Exports the
 * `entityRepository` (reads, drafts of changes, atomic commits announced by `entities.changed`), and serves
 * read routes for entities.
 */
export const contextGraphFeature = defineFeature({
  id: 'context-graph',
  kernel: '^0.1.0',
  register(f) {
    f.use(contextGraphBridge, { export: ['entityRepository'] });
    f.errors(contextGraphErrors);
    for (const route of entityRoutes) f.route(route);
    f.onInit(async (c) => c.resolve<EntityRepository>('entityRepository').ensureIndexes());
  },
});
