import { injectable } from 'tsyringe';
import { number, object, string, type InferType } from 'yup';
import { kernelRefs } from '../../src/kernel-refs.js';
import { collectionRef, injectRef } from '../../src/refs.js';
import { featureConfig } from '../../src/feature.js';
import type { Clock } from '../../src/clock.js';
import type { FeatureStore } from '../../src/store/owned-store.js';

export const greetingsCollection = collectionRef('greetings');

export const sampleConfig = featureConfig(object({ greeting: string().default('hello'), repeat: number().integer().min(1).max(3).default(1) }));
export type SampleConfig = InferType<typeof sampleConfig.schema>;

/** A tsyringe-built domain class: it only knows the references it injects. */
@injectable()
export class GreetingPolicy {
  constructor(
    @injectRef(sampleConfig.ref) private readonly config: SampleConfig,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
    @injectRef(kernelRefs.store) private readonly store: FeatureStore,
  ) {}

  greet(name: string): { text: string; at: number } {
    return { text: Array.from({ length: this.config.repeat }, () => `${this.config.greeting} ${name}`).join(' '), at: this.clock.nowSec() };
  }

  async remember(name: string): Promise<void> {
    await this.store.collection(greetingsCollection).updateOne({ _id: name }, { $inc: { count: 1 } }, { upsert: true });
  }

  async count(name: string): Promise<number> {
    const doc = await this.store.collection(greetingsCollection).findOne({ _id: name });
    return typeof doc?.count === 'number' ? doc.count : 0;
  }
}
