import { defineFeature } from '@vigie/kernel';
import { pipelineStagesPoint } from '@vigie/events';
import { contextGraphBridge } from './di.js';
import { contextGraphErrors } from './errors.js';
import { entitiesStage } from './entities-stage.js';
import { entityCollection } from './entity-repository.js';
import { EntityInfosSearch } from './entity-infos-search.js';
import { EventEntities } from './event-entities.js';
import { entitiesChangedEvent } from './refs.js';
import { entityRoutes } from './routes.js';

/**
 * The context graph: entities and their reciprocal impact/depends links in `default_entities`. Exports the
 * `entityRepositoryRef` (reads, drafts of changes, atomic commits announced by `entitiesChangedEvent`) and `eventEntitiesRef`
 * (the cached graph as events see it), `entityInfosSearchRef` (the entities whose infos hold a text), serves read routes for entities, and contributes the pipeline stage that
 * creates the entities events name (order 200).
 */
export const contextGraphFeature = defineFeature({
  id: 'context-graph',
  kernel: '^0.1.0',
  dependsOn: ['events'],
  register(f) {
    f.use(contextGraphBridge);
    f.event(entitiesChangedEvent);
    // Entities are often selected by type (watchers for the weather, connectors…).
    f.collection(entityCollection, { indexes: [{ keys: { type: 1 } }] });
    f.errors(contextGraphErrors);
    for (const route of entityRoutes) f.route(route);
    let stopInfosSearch: (() => void) | undefined;
    f.onInit((c) => {
      c.resolve(EventEntities).subscribe();
      stopInfosSearch = c.resolve(EntityInfosSearch).listen();
    });
    f.onShutdown(() => stopInfosSearch?.());
    f.extend(pipelineStagesPoint, (c) => entitiesStage(c.resolve(EventEntities)));
  },
});
