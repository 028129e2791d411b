// Compile-time checks of the typed references, run by the type check of the tests (`tsc -p tsconfig.test.json`):
// each `@ts-expect-error` fails the type check if the line below it compiles.
import 'reflect-metadata';
import { injectable } from 'tsyringe';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { number, object, string } from 'yup';
import type { Clock } from '../src/clock.js';
import { featureConfig } from '../src/feature.js';
import { kernelRefs } from '../src/kernel-refs.js';
import { collectionRef, injectRef, type CollectionRef, type ServiceRef } from '../src/refs.js';
import type { FeatureStore } from '../src/store/owned-store.js';
import type { Collection, Doc } from '../src/store/port.js';

const widgetsConfig = featureConfig(object({ size: number().integer().default(3), label: string().default('w') }));
interface WidgetRecord extends Doc {
  size: number;
}
const widgetCollection = collectionRef<WidgetRecord>('widgets');

@injectable()
class Widgets {
  constructor(
    @injectRef(widgetsConfig.ref) readonly config: { size: number; label: string },
    @injectRef(kernelRefs.clock) readonly clock: Clock,
    // A wider parameter type accepts the service.
    @injectRef(kernelRefs.featureId) readonly id: string | undefined,
  ) {}
}

@injectable()
class WrongClock {
  // @ts-expect-error the parameter is not a Clock
  constructor(@injectRef(kernelRefs.clock) readonly clock: string) {}
}

@injectable()
class WrongConfig {
  constructor(
    @injectRef(kernelRefs.clock) readonly clock: Clock,
    // @ts-expect-error the configuration's size is a number, not a string
    @injectRef(widgetsConfig.ref) readonly config: { size: string },
  ) {}
}

describe('typed references', () => {
  it('type the configuration from its schema, and collections by their documents', () => {
    expectTypeOf(widgetsConfig.ref).toEqualTypeOf<ServiceRef<{ size: number; label: string }>>();
    expectTypeOf(widgetCollection).toEqualTypeOf<CollectionRef<WidgetRecord>>();
    expectTypeOf((store: FeatureStore) => store.collection(widgetCollection)).returns.toEqualTypeOf<Collection<WidgetRecord>>();
  });

  it('name the collection once and keep the configuration reference the kernel fills', () => {
    expect(widgetCollection.name).toBe('widgets');
    expect(widgetsConfig.ref.id).toBe('kernel.config');
    expect(() => collectionRef('no spaces')).toThrow('collection name "no spaces" must be letters, digits, _ . -');
    expect([Widgets, WrongClock, WrongConfig].map((c) => c.name)).toEqual(['Widgets', 'WrongClock', 'WrongConfig']);
  });
});
