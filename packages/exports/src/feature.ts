import { defineFeature } from '@vigie/kernel';
import { exportsConfig, type ExportsConfig } from './config.js';
import { exportsBridge } from './di.js';
import { ExportService, exportJobName } from './export-service.js';
import { exportChunkCollection, exportTaskCollection } from './export-task.js';
import { exportsRoutes } from './routes.js';

/** Exports: alarms and entities to CSV files, each written by a durable job (`/api/v2/alarm-export`, `/api/v2/entity-export`). */
export const exportsFeature = defineFeature<ExportsConfig>({
  id: 'exports',
  kernel: '^0.1.0',
  dependsOn: ['alarms', 'context-graph'],
  config: exportsConfig,
  register(f) {
    f.use(exportsBridge);
    f.collection(exportTaskCollection);
    f.collection(exportChunkCollection, { indexes: [{ keys: { export: 1 } }] });
    for (const route of exportsRoutes) f.route(route);
    f.job<{ exportId: string }>({
      name: exportJobName,
      // A run writes pages and touches its lock after each: a crashed node's export is taken over and written again.
      lockLifetimeMs: 60_000,
      handler: (run) => run.scope.resolve(ExportService).run(run.data.exportId, () => run.touch()),
    });
    f.onStart((c) => c.resolve(ExportService).sweep());
  },
});
