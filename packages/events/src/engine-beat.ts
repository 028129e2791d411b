import type { FeatureRegistrar, LifecycleHook, Logger } from '@vigie/kernel';
import type { EngineSettings } from './pipeline.js';

type FeatureContainer = Parameters<LifecycleHook>[0];

export interface EngineBeat {
  /** Names the beat in the log line of a failed tick. */
  name: string;
  /** Runs once at start, before the first tick (e.g. picking up what a previous run left). */
  prepare?(container: FeatureContainer): Promise<void>;
  /** One beat's work; a tick still running when the next is due makes that one skipped. */
  tick(container: FeatureContainer): Promise<unknown>;
}

/**
 * Runs an engine's periodic work every `[engine] beat_interval`, from start until shutdown, one tick at a time. The
 * beat is a timer of this process, not a stored job: it must tick every second in tests and demos, and every change
 * a tick makes is decided again under the entity's lock, so two nodes beating at once do no harm. A failed tick is
 * logged and the next one runs as planned.
 */
export function registerEngineBeat<C>(f: FeatureRegistrar<C>, beat: EngineBeat): void {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  f.onStart(async (c) => {
    const logger = c.resolve<Logger>('logger');
    const { beatIntervalMs } = c.resolve<EngineSettings>('engineSettings');
    await beat.prepare?.(c);
    let busy = false;
    timer = setInterval(() => {
      if (busy) return;
      busy = true;
      running = beat
        .tick(c)
        .catch((err: unknown) => logger.error({ err }, `${beat.name} beat failed`))
        .finally(() => {
          busy = false;
        });
    }, beatIntervalMs);
    timer.unref();
  });
  f.onBeforeShutdown(async () => {
    clearInterval(timer);
    await running;
  });
}
