import { kernelRefs, type FeatureRegistrar, type FeatureScope } from '@vigie/kernel';
import { engineBeatsRef, engineSettingsRef } from './refs.js';

export interface EngineBeat {
  /** Names the beat in the log line of a failed tick. */
  name: string;
  /** Runs once at start, before the first tick (e.g. picking up what a previous run left). */
  prepare?(scope: FeatureScope): Promise<void>;
  /** One beat's work; a tick still running when the next is due makes that one skipped. */
  tick(scope: FeatureScope): Promise<unknown>;
}

/**
 * Runs an engine's periodic work every `[engine] beat_interval`, from start until shutdown, one tick at a time. The
 * beat is a timer of this process, not a stored job: it must tick every second in tests and demos, and every change
 * a tick makes is decided again under the entity's lock, so two nodes beating at once do no harm. A failed tick is
 * logged and the next one runs as planned. The beat is also listed in the events feature's `EngineBeats`, which runs
 * a tick on demand (after the one in flight). The feature must depend on `events`.
 */
export function registerEngineBeat<C>(f: FeatureRegistrar<C>, beat: EngineBeat): void {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let busy = false;
  f.consume(engineSettingsRef);
  f.consume(engineBeatsRef);
  f.onStart(async (c) => {
    const logger = c.resolve(kernelRefs.logger);
    const { beatIntervalMs } = c.resolve(engineSettingsRef);
    await beat.prepare?.(c);
    const tick = (): Promise<unknown> => {
      busy = true;
      running = beat
        .tick(c)
        .catch((err: unknown) => logger.error({ err }, `${beat.name} beat failed`))
        .finally(() => {
          busy = false;
        });
      return running;
    };
    c.resolve(engineBeatsRef).add({
      name: beat.name,
      runNow: async () => {
        while (busy) await running;
        await tick();
      },
    });
    timer = setInterval(() => {
      if (!busy) void tick();
    }, beatIntervalMs);
    timer.unref();
  });
  f.onBeforeShutdown(async () => {
    clearInterval(timer);
    await running;
  });
}
