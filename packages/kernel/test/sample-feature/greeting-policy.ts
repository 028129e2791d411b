import { inject, injectable } from 'tsyringe';
import { KernelTokens } from '../../src/di/bridge.js';
import type { Clock } from '../../src/clock.js';
import type { Store } from '../../src/store/port.js';

export const SampleTokens = {
  GreetingPolicy: Symbol.for('sample.GreetingPolicy'),
} as const;

export interface SampleConfig {
  greeting: string;
  repeat: number;
}

/** A tsyringe-built domain class: it only knows its tokens. */
@injectable()
export class GreetingPolicy {
  constructor(
    @inject(KernelTokens.Config) private readonly config: SampleConfig,
    @inject(KernelTokens.Clock) private readonly clock: Clock,
    @inject(KernelTokens.Store) private readonly store: Store,
  ) {}

  greet(name: string): { text: string; at: number } {
    return { text: Array.from({ length: this.config.repeat }, () => `${this.config.greeting} ${name}`).join(' '), at: this.clock.nowSec() };
  }

  async remember(name: string): Promise<void> {
    await this.store.collection('greetings').updateOne({ _id: name }, { $inc: { count: 1 } }, { upsert: true });
  }

  async count(name: string): Promise<number> {
    const doc = await this.store.collection('greetings').findOne({ _id: name });
    return typeof doc?.count === 'number' ? doc.count : 0;
  }
}
