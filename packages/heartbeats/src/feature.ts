import { defineFeature, kernelRefs } from '@vigie/kernel';
import { PipelineOrder, pipelineStagesPoint, registerEngineBeat } from '@vigie/events';
import { heartbeatsConfig, type HeartbeatsConfig } from './config.js';
import { heartbeatsBridge } from './di.js';
import { HeartbeatEngine } from './heartbeat-engine.js';
import { heartbeatErrors } from './errors.js';
import { heartbeatRoutes } from './routes.js';
import { heartbeatCollection } from './heartbeat-repository.js';
import { heartbeatStateCollection } from './heartbeat-state.js';

/**
 * Heartbeats: the expected event interval of each connector, kept in `heartbeat`. The engine's pipeline stage
 * (order 300) notes matching events; its beat (every `[engine] beat_interval`) raises the alarm of each heartbeat
 * left silent longer than its interval. Owns `[heartbeats]`.
 */
export const heartbeatsFeature = defineFeature<HeartbeatsConfig>({
  id: 'heartbeats',
  kernel: '^0.1.0',
  dependsOn: ['events'],
  config: heartbeatsConfig,
  register(f) {
    f.use(heartbeatsBridge);
    f.collection(heartbeatCollection);
    f.collection(heartbeatStateCollection);
    f.errors(heartbeatErrors);
    for (const route of heartbeatRoutes) f.route(route);
    f.extend(pipelineStagesPoint, (c) => {
      const engine = c.resolve(HeartbeatEngine);
      return { name: 'heartbeats', order: PipelineOrder.heartbeats, process: (context) => engine.eventSeen(context) };
    });

    // Raising an alarm is a compare-and-set in the store, so two nodes beating at once raise it once.
    registerEngineBeat(f, {
      name: 'heartbeats',
      // A store that does not answer must not keep the server from starting: the beat tries again.
      prepare: (c) =>
        c
          .resolve(HeartbeatEngine)
          .resume()
          .catch((err: unknown) => c.resolve(kernelRefs.logger).error({ err }, 'heartbeats: resuming the raised alarms failed')),
      tick: (c) => c.resolve(HeartbeatEngine).beat(),
    });
  },
});
