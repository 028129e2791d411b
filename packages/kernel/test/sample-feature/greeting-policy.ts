import { injectable } from 'tsyringe';
import { kernelRefs } from '../../src/kernel-refs.js';
import { injectRef } from '../../src/refs.js';
import type { Clock } from '../../src/clock.js';
import type { Store } from '../../src/store/port.js';

export interface SampleConfig {
  greeting: string;
  repeat: number;
}

/** A tsyringe-built domain class: it only knows the references it injects. */
@injectable()
export class GreetingPolicy {
  constructor(
    @injectRef(kernelRefs.config) private readonly config: SampleConfig,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
    @injectRef(kernelRefs.store) private readonly store: Store,
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
