/** Test helpers for features that contribute pipeline stages (`@vigie/events/testing`). */
import { defineFeature, type AnyFeature } from '@vigie/kernel';
import { pipelineStagesPoint, type PipelineContext } from './pipeline.js';

/** What a recording stage saw of one event. */
export interface Seen {
  eventId: string;
  entityId: string;
  event: Record<string, unknown>;
}

/**
 * A feature contributing stages that record what reaches them (and may act on it), the way a real feature plugs a
 * stage into the pipeline. `waitFor(n)` resolves once the last stage has seen `n` events.
 */
export function recordingFeature(stages: { name: string; order: number; act?: (context: PipelineContext) => Promise<void> | void }[]): {
  feature: AnyFeature;
  seen: Map<string, Seen[]>;
  waitFor(stage: string, count: number, timeoutMs?: number): Promise<void>;
} {
  const seen = new Map<string, Seen[]>(stages.map((s) => [s.name, []]));
  const waiters: { stage: string; count: number; resolve: () => void }[] = [];
  const feature: AnyFeature = defineFeature({
    id: 'recorder',
    kernel: '^0.1.0',
    dependsOn: ['events'],
    register(f) {
      for (const spec of stages) {
        f.extend(pipelineStagesPoint, () => ({
          name: spec.name,
          order: spec.order,
          async process(context) {
            await spec.act?.(context);
            const list = seen.get(spec.name) as Seen[];
            list.push({ eventId: context.eventId, entityId: context.entityId, event: structuredClone(context.event) });
            for (const waiter of waiters.filter((w) => w.stage === spec.name && list.length >= w.count)) {
              waiters.splice(waiters.indexOf(waiter), 1);
              waiter.resolve();
            }
          },
        }));
      }
    },
  });
  const waitFor = (stage: string, count: number, timeoutMs = 30_000): Promise<void> =>
    (seen.get(stage)?.length ?? 0) >= count
      ? Promise.resolve()
      : new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`stage ${stage} saw ${seen.get(stage)?.length} events, not ${count}`)), timeoutMs);
          waiters.push({ stage, count, resolve: () => (clearTimeout(timer), resolve()) });
        });
  return { feature, seen, waitFor };
}

/** A check event on `disk/host` from `nagios/nagios-1`, state 2, with `overrides`. */
export const check = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  event_type: 'check',
  source_type: 'resource',
  connector: 'nagios',
  connector_name: 'nagios-1',
  component: 'host',
  resource: 'disk',
  state: 2,
  output: 'disk full',
  ...overrides,
});
