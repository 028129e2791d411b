import { defineFeature } from '@vigie/kernel';
import { importConfig, type ImportConfig } from './config.js';
import { importBridge } from './di.js';
import { importErrors } from './errors.js';
import { importCollection } from './import-repository.js';
import { leaseMs, processJobName, ImportProcessor, type ProcessJobData } from './processor.js';
import { importStatusChangedEvent } from './refs.js';
import { importRoutes } from './routes.js';
import { entityRoutes } from './entity-routes.js';

/**
 * The asynchronous context graph import: `PUT`/`POST /api/contextgraph/import` stores the body and queues it,
 * the `import.process` job applies imports one at a time in submission order, all or nothing, and
 * `GET /api/contextgraph/import/status/<id>` tells where each one stands.
 */
export const importFeature = defineFeature<ImportConfig>({
  id: 'import',
  kernel: '^0.1.0',
  dependsOn: ['context-graph'],
  config: importConfig,
  register(f) {
    f.use(importBridge);
    f.collection(importCollection, { indexes: [{ keys: { seq: 1 }, unique: true }] });
    f.event(importStatusChangedEvent);
    f.errors(importErrors);
    for (const route of importRoutes) f.route(route);
    for (const route of entityRoutes) f.route(route);
    f.job<ProcessJobData>({
      name: processJobName,
      concurrency: 1,
      // A run touches its lock each time it renews its claim on the import: the job of a node that died processing
      // one is run by another node once the claim has run out, not after the scheduler's 10-minute default.
      lockLifetimeMs: leaseMs,
      handler: (run) => run.scope.resolve(ImportProcessor).processQueue(run),
    });
    f.onStart((c) => c.resolve(ImportProcessor).recover());
  },
});
