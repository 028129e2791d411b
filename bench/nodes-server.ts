// One node of the `nodes` benchmark: the reference server on the install directory given, plus a stage right after
// the alarms stage that counts the events this node processed and prints `PROCESSED <count>` every 100 ms.
//   nodes-server.ts <install dir>        (started by bench/nodes-pipeline.ts; prints `LISTENING <url>`)
import { pipelineStagesPoint, PipelineOrder, type PipelineStage } from '../packages/events/src/index.js';
import { defineFeature } from '../packages/kernel/src/index.js';
import { createServerKernel } from '../apps/server/src/index.js';

let processed = 0;
const countFeature = defineFeature({
  id: 'bench-count',
  kernel: '^0.1.0',
  dependsOn: ['events'],
  register(f) {
    f.extend<PipelineStage>(pipelineStagesPoint, () => ({
      name: 'bench-count',
      order: PipelineOrder.alarms + 1,
      process() {
        processed += 1;
        return Promise.resolve();
      },
    }));
  },
});

const kernel = await createServerKernel({ installDir: process.argv[2], extraFeatures: [countFeature], port: 0 });
kernel.installSignalHandlers();
const address = await kernel.start();
process.stdout.write(`LISTENING ${address.url}\n`);
setInterval(() => process.stdout.write(`PROCESSED ${processed}\n`), 100).unref();
