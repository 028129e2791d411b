/** Every feature reads time through this port so tests can pin and move it. */
export interface Clock {
  /** Milliseconds since the epoch. */
  nowMs(): number;
  /** Whole seconds since the epoch (the spec's time unit). */
  nowSec(): number;
  now(): Date;
}

export const systemClock: Clock = {
  nowMs: () => Date.now(),
  nowSec: () => Math.floor(Date.now() / 1000),
  now: () => new Date(),
};

/** A clock that only moves when told to. */
export class ManualClock implements Clock {
  #ms: number;

  constructor(start: Date | number = Date.UTC(2024, 0, 1)) {
    this.#ms = typeof start === 'number' ? start : start.getTime();
  }

  nowMs(): number {
    return this.#ms;
  }

  nowSec(): number {
    return Math.floor(this.#ms / 1000);
  }

  now(): Date {
    return new Date(this.#ms);
  }

  set(to: Date | number): void {
    this.#ms = typeof to === 'number' ? to : to.getTime();
  }

  advance(ms: number): void {
    this.#ms += ms;
  }
}
