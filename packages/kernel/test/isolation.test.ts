import 'reflect-metadata';
import { inject, injectable } from 'tsyringe';
import { afterEach, describe, expect, it } from 'vitest';
import { defineBridge, provide } from '../src/di/bridge.js';
import { hasCode, ErrorCodes } from '../src/errors.js';
import { defineFeature } from '../src/feature.js';
import { kernelRefs } from '../src/kernel-refs.js';
import { eventRef, extensionPointRef, injectRef, serviceRef } from '../src/refs.js';
import { memoryStoreFactory } from '@vigie/documents';
import { startTestKernel, type TestKernel } from '@vigie/kernel-testing';
import { compose } from './compose.js';


interface Counter {
  next(): number;
}

const counterRef = serviceRef<Counter>('counters.counter');
const secretRef = serviceRef<{ value: string }>('counters.secret');
const countedEvent = eventRef<{ value: number }>('counters.counted');
const displaysPoint = extensionPointRef<string>('counters.displays');

/** Exports `counterRef`, keeps `secretRef` to itself, owns an event and an extension point. */
const counters = defineFeature({
  id: 'counters',
  kernel: '^0.1.0',
  register(f) {
    let n = 0;
    f.service(counterRef, () => ({ next: () => ++n }), { export: true });
    f.service(secretRef, () => ({ value: 'hidden' }));
    f.event(countedEvent);
    f.extensionPoint(displaysPoint);
  },
});

@injectable()
class NeedsNothing implements Counter {
  next(): number {
    return 0;
  }
}

let t: TestKernel | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

describe('typed references', () => {
  it('resolve a dependency export with its type, once declared consumed', async () => {
    let seen: number | undefined;
    const user = defineFeature({
      id: 'user',
      kernel: '^0.1.0',
      dependsOn: ['counters'],
      register(f) {
        f.consume(counterRef, countedEvent);
        f.onInit((scope) => {
          scope.resolve(kernelRefs.eventBus).on(countedEvent, ({ value }) => void (seen = value));
        });
        f.onStart(async (scope) => {
          const first: number = scope.resolve(counterRef).next();
          expect(first).toBe(1);
        });
      },
    });
    t = await startTestKernel({ store: memoryStoreFactory(), features: [counters, user] });
    await t.kernel.scope('counters').resolve(kernelRefs.eventBus).emit(countedEvent, { value: 7 });
    expect(seen).toBe(7);
  });

  it('hide the exports of a feature not in dependsOn, at boot and at run time', async () => {
    const stranger = defineFeature({ id: 'stranger', kernel: '^0.1.0', register: (f) => f.consume(counterRef) });
    expect(compose([counters, stranger]).details).toEqual([
      'feature stranger consumes service counters.counter, which feature counters provides, but stranger does not depend on counters',
    ]);
    const undeclared = defineFeature({ id: 'undeclared', kernel: '^0.1.0', register() {} });
    t = await startTestKernel({ store: memoryStoreFactory(), features: [counters, undeclared] });
    expect(() => t?.kernel.scope('undeclared').resolve(counterRef)).toThrow(
      'feature undeclared cannot resolve service counters.counter: it is neither its own nor exported by a feature it depends on and consumes',
    );
  });

  it('keep services that are not exported hidden, even from dependents', async () => {
    const curious = defineFeature({ id: 'curious', kernel: '^0.1.0', dependsOn: ['counters'], register: (f) => f.consume(secretRef) });
    expect(compose([counters, curious]).details).toEqual(['feature curious consumes service counters.secret, which no composed feature exports']);
    const dependent = defineFeature({ id: 'dependent', kernel: '^0.1.0', dependsOn: ['counters'], register() {} });
    t = await startTestKernel({ store: memoryStoreFactory(), features: [counters, dependent] });
    expect(t.kernel.scope('counters').resolve(secretRef).value).toBe('hidden');
    expect(() => t?.kernel.scope('dependent').resolve(secretRef)).toThrow('feature dependent cannot resolve service counters.secret');
  });

  it('let only dependents contribute to an extension point', async () => {
    const outsider = defineFeature({ id: 'outsider', kernel: '^0.1.0', register: (f) => f.extend(displaysPoint, () => 'outside') });
    expect(compose([counters, outsider]).details).toEqual(['feature outsider contributes to counters.displays but does not depend on counters']);
    const insider = defineFeature({ id: 'insider', kernel: '^0.1.0', dependsOn: ['counters'], register: (f) => f.extend(displaysPoint, () => 'inside') });
    t = await startTestKernel({ store: memoryStoreFactory(), features: [counters, insider] });
    expect(t.kernel.scope('counters').resolve(kernelRefs.extensions).contributions(displaysPoint)).toEqual(['inside']);
  });

  it('let a feature emit only its own events and hear only declared ones', async () => {
    const listener = defineFeature({
      id: 'listener',
      kernel: '^0.1.0',
      dependsOn: ['counters'],
      register(f) {
        f.onInit((scope) => void scope.resolve(kernelRefs.eventBus).on(countedEvent, () => undefined));
      },
    });
    await expect(startTestKernel({ store: memoryStoreFactory(), features: [counters, listener] })).rejects.toThrow(
      'feature listener listens to event counters.counted, which it neither declares nor consumes (f.consume)',
    );
  });

  it('run shutdown hooks in reverse dependency order', async () => {
    const order: string[] = [];
    const layer = (id: string, dependsOn: string[]) =>
      defineFeature({
        id,
        kernel: '^0.1.0',
        dependsOn,
        register(f) {
          f.onBeforeShutdown(() => void order.push(`before ${id}`));
          f.onShutdown(() => void order.push(`shutdown ${id}`));
        },
      });
    // Composed in an order unrelated to the dependencies: top depends on middle, middle on base.
    const kernel = await startTestKernel({ store: memoryStoreFactory(), features: [layer('top', ['middle']), layer('base', []), layer('middle', ['base'])] });
    await kernel.stop();
    expect(order).toEqual(['before top', 'before middle', 'before base', 'shutdown top', 'shutdown middle', 'shutdown base']);
  });

  it('are checked at boot, every problem reported at once', () => {
    const missingRef = serviceRef<Counter>('absent.counter');
    @injectable()
    class NeedsCounter {
      constructor(@injectRef(missingRef) readonly counter: Counter) {}
    }
    const bridged = defineFeature({
      id: 'bridged',
      kernel: '^0.1.0',
      register(f) {
        f.use(defineBridge({ imports: [missingRef, counterRef], singletons: [NeedsCounter], exports: [provide(serviceRef<NeedsCounter>('bridged.needs'), NeedsCounter)] }));
        f.consume(countedEvent);
        f.extend(displaysPoint, () => 'x');
        f.event(countedEvent);
      },
    });
    const err = compose([counters, bridged]);
    expect(hasCode(err, ErrorCodes.InvalidComposition)).toBe(true);
    expect(err.details).toEqual(
      expect.arrayContaining([
        'event counters.counted is declared by features counters and bridged',
        'feature bridged declares event counters.counted, whose id must start with "bridged."',
        'feature bridged imports service absent.counter into its bridge, which no composed feature exports',
        'feature bridged imports service counters.counter into its bridge, which feature counters provides, but bridged does not depend on counters',
        'feature bridged consumes event counters.counted, which feature counters provides, but bridged does not depend on counters',
        'feature bridged contributes to counters.displays but does not depend on counters',
      ]),
    );
    expect(err.details).toHaveLength(6);
  });

  it('injected by bridge classes are checked at boot, not on the first request', () => {
    @injectable()
    class Helper {}
    @injectable()
    class Unlisted {}
    @injectable()
    class NeedsUnimported {
      constructor(
        @injectRef(counterRef) readonly counter: Counter,
        @injectRef(kernelRefs.clock) readonly clock: unknown,
        @inject(Helper) readonly helper: Helper,
      ) {}
    }
    @injectable()
    class NeedsUnlisted {
      constructor(@inject(Unlisted) readonly unlisted: Unlisted) {}
    }
    @injectable()
    class HalfInjected {
      constructor(
        @inject(Helper) readonly helper: Helper,
        readonly forgotten: string,
      ) {}
    }
    const careless = defineFeature({
      id: 'careless',
      kernel: '^0.1.0',
      dependsOn: ['counters'],
      register(f) {
        f.consume(counterRef);
        f.use(
          defineBridge({
            singletons: [Helper, NeedsUnimported, NeedsUnlisted, HalfInjected],
            exports: [provide(serviceRef<Unlisted>('careless.unlisted'), Unlisted)],
          }),
        );
      },
    });
    const err = compose([counters, careless]);
    expect(hasCode(err, ErrorCodes.InvalidComposition)).toBe(true);
    expect(err.details).toEqual([
      'feature careless: class NeedsUnimported of its bridge injects service counters.counter, which the bridge does not import',
      "feature careless: class NeedsUnlisted of its bridge injects class Unlisted, which is not one of the bridge's singletons",
      'feature careless: class HalfInjected of its bridge has constructor parameter 1 injected by nothing (no @inject or @injectRef)',
      "feature careless: its bridge exports service careless.unlisted as class Unlisted, which is not one of the bridge's singletons",
    ]);
  });

  it('must start with the id of the feature declaring them', () => {
    const stray = defineFeature({
      id: 'stray',
      kernel: '^0.1.0',
      register(f) {
        f.service(serviceRef<string>('strays.private'), () => 'private');
        f.use(defineBridge({ exports: [provide(serviceRef<Counter>('counters.counter'), NeedsNothing)], singletons: [NeedsNothing] }));
        f.event(eventRef<{ id: string }>('entities.changed'));
        f.extensionPoint(extensionPointRef<string>('stray-points.all'));
        f.service(serviceRef<string>('stray.fine'), () => 'fine', { export: true });
      },
    });
    expect(compose([stray]).details).toEqual([
      'feature stray declares service strays.private, whose id must start with "stray."',
      'feature stray declares service counters.counter, whose id must start with "stray."',
      'feature stray declares event entities.changed, whose id must start with "stray."',
      'feature stray declares extension point stray-points.all, whose id must start with "stray."',
    ]);
  });
});
