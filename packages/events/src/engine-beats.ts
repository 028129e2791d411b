import { inject, injectable } from 'tsyringe';
import { PipelineRunner } from './pipeline-runner.js';

/** One engine's beat as the registry holds it: a name, and a way to run a tick now. */
interface RegisteredBeat {
  name: string;
  runNow(): Promise<void>;
}

/**
 * Every engine beat of this kernel (`registerEngineBeat`), in start order. `runAll()` runs each once now and resolves
 * when all have finished and the events they sent have gone through the pipeline, so that a test can advance its
 * clock and then drive the engines to the point it asserts on, instead of waiting for the timers and polling.
 */
@injectable()
export class EngineBeats {
  readonly #beats: RegisteredBeat[] = [];

  constructor(@inject(PipelineRunner) private readonly runner: PipelineRunner) {}

  add(beat: RegisteredBeat): void {
    this.#beats.push(beat);
  }

  /** Runs every beat once, one after the other (each after the tick it may have in flight), then waits for the pipeline to be idle. */
  async runAll(): Promise<void> {
    for (const beat of this.#beats) await beat.runNow();
    await this.runner.whenIdle();
  }
}
