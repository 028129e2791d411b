import { defineFeature } from '@vigie/kernel';
import { PipelineOrder, pipelineStagesPoint, registerEngineBeat } from '@vigie/events';
import { idleRulesBridge } from './di.js';
import { IdleRuleEngine } from './idle-rule-engine.js';
import { idleRuleErrors } from './errors.js';
import { bulkIdleRuleRoutes, idleRuleRoutes } from './routes.js';
import { idleRuleCollection } from './idle-rule-repository.js';
import { idleMarkCollection } from './idle-marks.js';

/** Order of the stage that notes events for the idle rules: right after the alarms stage. */
export const idleRulesStageOrder = PipelineOrder.alarms + 50;

/**
 * Idle rules: what happens to alarms that received no event (`last_event`) or did not change (`last_update`) for a
 * duration. The routes keep the rules in `idle_rule`; the engine applies them every `[engine] beat_interval`, and a
 * pipeline stage notes each event so that a rule fires again only after a new idle period.
 */
export const idleRulesFeature = defineFeature({
  id: 'idle-rules',
  kernel: '^0.1.0',
  dependsOn: ['events', 'alarms', 'context-graph', 'pbehaviors'],
  register(f) {
    f.use(idleRulesBridge);
    f.collection(idleRuleCollection);
    f.collection(idleMarkCollection);
    f.errors(idleRuleErrors);
    for (const route of [...idleRuleRoutes, ...bulkIdleRuleRoutes]) f.route(route);
    f.extend(pipelineStagesPoint, (c) => {
      const engine = c.resolve(IdleRuleEngine);
      return {
        name: 'idle-rules',
        order: idleRulesStageOrder,
        process: (context) => engine.eventSeen(context.entityId, context.acceptedAt),
      };
    });

    registerEngineBeat(f, { name: 'idle rules', tick: (c) => c.resolve(IdleRuleEngine).beat() });
  },
});
