/**
 * The one place where awilix (composition and lifetimes) meets tsyringe (a feature's internal class graph).
 * Each feature has exactly one `src/di.ts` that calls `defineBridge`; route handlers, jobs and health checks
 * resolve through awilix, domain classes only know tsyringe's `@injectable()` and `@inject(TOKEN)`.
 */
import 'reflect-metadata';
import { asFunction, type AwilixContainer, type Resolver } from 'awilix';
import { container as tsyringeRoot, Lifecycle, type InjectionToken } from 'tsyringe';

/** Tokens under which every bridge imports the kernel's services into tsyringe. */
export const KernelTokens = {
  Store: Symbol.for('kernel.Store'),
  Clock: Symbol.for('kernel.Clock'),
  Logger: Symbol.for('kernel.Logger'),
  EventBus: Symbol.for('kernel.EventBus'),
  Scheduler: Symbol.for('kernel.Scheduler'),
  Health: Symbol.for('kernel.Health'),
  /** The feature's own validated configuration slice. */
  Config: Symbol.for('kernel.Config'),
  /** Directory for the installation's data files. */
  DataDir: Symbol.for('kernel.DataDir'),
  /** The environment variables the kernel was given. */
  Env: Symbol.for('kernel.Env'),
  /** `{ contributions(point) }`: what other features contributed to this feature's extension points. */
  Extensions: Symbol.for('kernel.Extensions'),
  /** `InputLimits`: the server's bounds on input (`[server] json_max_depth`), for input a feature reads itself. */
  InputLimits: Symbol.for('kernel.InputLimits'),
  /** The kernel's observation hooks (requests, store operations, job runs, pipeline progress). */
  Observations: Symbol.for('kernel.Observations'),
} as const;

/** awilix registration names of what `KernelTokens` stand for. */
const kernelImports: Record<string, symbol> = {
  store: KernelTokens.Store,
  clock: KernelTokens.Clock,
  logger: KernelTokens.Logger,
  eventBus: KernelTokens.EventBus,
  scheduler: KernelTokens.Scheduler,
  health: KernelTokens.Health,
  config: KernelTokens.Config,
  dataDir: KernelTokens.DataDir,
  env: KernelTokens.Env,
  extensions: KernelTokens.Extensions,
  inputLimits: KernelTokens.InputLimits,
  observations: KernelTokens.Observations,
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tsyringe's own constructor type
type Constructor = new (...args: any[]) => unknown;

export interface BridgeSpec {
  /** Extra awilix names imported into tsyringe (e.g. services exported by a dependency). */
  imports?: Readonly<Record<string, symbol>>;
  /** Classes built once per feature container (repositories, services, policies). */
  singletons?: readonly Constructor[];
  /** awilix name ⇒ tsyringe class or token: what the feature's routes, jobs and dependents can resolve. */
  exports: Readonly<Record<string, InjectionToken<unknown>>>;
}

export interface DiBridge {
  readonly spec: BridgeSpec;
  /** Builds a tsyringe child container fed from `container`; returns awilix resolvers for the exports. */
  install(container: AwilixContainer): Record<string, Resolver<unknown>>;
}

export function defineBridge(spec: BridgeSpec): DiBridge {
  return {
    spec,
    install(container) {
      // A child of tsyringe's root container: nothing is ever registered in the global container itself.
      const child = tsyringeRoot.createChildContainer();
      const imports = { ...kernelImports, ...spec.imports };
      for (const [name, token] of Object.entries(imports)) {
        child.register(token, { useFactory: () => container.resolve(name) });
      }
      for (const cls of spec.singletons ?? []) {
        child.register(cls, { useClass: cls }, { lifecycle: Lifecycle.ContainerScoped });
      }
      const resolvers: Record<string, Resolver<unknown>> = {};
      for (const [name, token] of Object.entries(spec.exports)) {
        resolvers[name] = asFunction(() => child.resolve(token)).singleton();
      }
      return resolvers;
    },
  };
}
