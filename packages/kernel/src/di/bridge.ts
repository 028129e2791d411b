/**
 * The one place where awilix (composition and lifetimes) meets tsyringe (a feature's internal class graph).
 * Each feature has exactly one `src/di.ts` that calls `defineBridge`; domain classes only know tsyringe's
 * `@injectable()`, `@inject(Class)` for their own classes and `@injectRef(ref)` for what they import.
 */
import 'reflect-metadata';
import { asFunction, type AwilixContainer } from 'awilix';
import { container as tsyringeRoot, Lifecycle, type InjectionToken } from 'tsyringe';
import { kernelRefs } from '../kernel-refs.js';
import type { AnyServiceRef, Constructor, ServiceRef } from '../refs.js';
import { classKey } from './scope.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tsyringe's own constructor type
type Class = new (...args: any[]) => unknown;

/** A service of the bridge's graph exported under a reference. */
export interface BridgeExport {
  readonly ref: AnyServiceRef;
  readonly token: InjectionToken<unknown>;
}

/** Exports the bridge's `token` (usually a class of `singletons`) as `ref`; the class must be a `T`. */
export function provide<T>(ref: ServiceRef<T>, token: Constructor<T> | InjectionToken<T>): BridgeExport {
  return { ref, token: token as InjectionToken<unknown> };
}

export interface BridgeSpec {
  /** Services of dependencies the graph injects with `@injectRef` (the kernel's are always imported). */
  imports?: readonly AnyServiceRef[];
  /** Classes built once per feature container (repositories, services, policies); the feature resolves them by class. */
  singletons?: readonly Class[];
  /** What dependents see: each under its reference. */
  exports?: readonly BridgeExport[];
}

export interface DiBridge {
  readonly spec: BridgeSpec;
  /** Builds a tsyringe child container fed from `container` and registers its classes and exports there. */
  install(container: AwilixContainer): void;
}

const kernelIds = Object.values(kernelRefs).map((ref) => ref.id);

export function defineBridge(spec: BridgeSpec): DiBridge {
  return {
    spec,
    install(container) {
      // A child of tsyringe's root container: nothing is ever registered in the global container itself.
      const child = tsyringeRoot.createChildContainer();
      for (const id of [...kernelIds, ...(spec.imports ?? []).map((ref) => ref.id)]) {
        child.register(id, { useFactory: () => container.resolve(id) });
      }
      for (const cls of spec.singletons ?? []) {
        child.register(cls, { useClass: cls }, { lifecycle: Lifecycle.ContainerScoped });
        container.register(classKey(cls), asFunction(() => child.resolve(cls)).singleton());
      }
      for (const { ref, token } of spec.exports ?? []) {
        container.register(ref.id, asFunction(() => child.resolve(token)).singleton());
      }
    },
  };
}
