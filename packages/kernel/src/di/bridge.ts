/**
 * The one place where awilix (composition and lifetimes) meets tsyringe (a feature's internal class graph).
 * Each feature has exactly one `src/di.ts` that calls `defineBridge`; domain classes only know tsyringe's
 * `@injectable()`, `@inject(Class)` for their own classes and `@injectRef(ref)` for what they import.
 */
import 'reflect-metadata';
import { asFunction, type AwilixContainer } from 'awilix';
import { container as tsyringeRoot, Lifecycle, type InjectionToken } from 'tsyringe';
import { kernelServiceIds } from '../kernel-refs.js';
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

// Where tsyringe's `@inject` (so `@injectRef`) records a constructor's tokens, by parameter index. Decorator metadata
// is not emitted, so these are all a class's injections.
const injectionTokensKey = 'injectionTokens';

/**
 * What would make the bridge's graph fail when first resolved, found from its classes' injection metadata without
 * building anything: a reference the bridge does not import, a class that is not one of its singletons, a
 * constructor parameter nothing injects. Checked at boot so the failure is a composition error, not a 500.
 */
export function bridgeProblems(spec: BridgeSpec): string[] {
  const problems: string[] = [];
  const singletons = new Set<unknown>(spec.singletons ?? []);
  const imported = new Set([...kernelServiceIds, ...(spec.imports ?? []).map((ref) => ref.id)]);
  for (const cls of spec.singletons ?? []) {
    const tokens = (Reflect.getOwnMetadata(injectionTokensKey, cls) ?? {}) as Record<number, unknown>;
    for (let index = 0; index < cls.length; index += 1) {
      const given = tokens[index];
      // `@inject(token, transform)` records `{ token, … }`; `delay(() => Class)` cannot be read before it runs.
      const token = given !== null && typeof given === 'object' && 'token' in given ? given.token : given;
      if (token === undefined) problems.push(`class ${cls.name} of its bridge has constructor parameter ${index} injected by nothing (no @inject or @injectRef)`);
      else if (typeof token === 'string' && !imported.has(token)) problems.push(`class ${cls.name} of its bridge injects service ${token}, which the bridge does not import`);
      else if (typeof token === 'function' && !singletons.has(token)) problems.push(`class ${cls.name} of its bridge injects class ${token.name}, which is not one of the bridge's singletons`);
    }
  }
  for (const { ref, token } of spec.exports ?? []) {
    if (typeof token === 'function' && !singletons.has(token)) problems.push(`its bridge exports service ${ref.id} as class ${token.name}, which is not one of the bridge's singletons`);
  }
  return problems;
}

export function defineBridge(spec: BridgeSpec): DiBridge {
  return {
    spec,
    install(container) {
      // A child of tsyringe's root container: nothing is ever registered in the global container itself.
      const child = tsyringeRoot.createChildContainer();
      for (const id of [...kernelServiceIds, ...(spec.imports ?? []).map((ref) => ref.id)]) {
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
