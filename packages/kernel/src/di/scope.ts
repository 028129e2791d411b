import type { AwilixContainer } from 'awilix';
import type { Constructor, FeatureScope, ServiceRef } from '../refs.js';

const classKeys = new WeakMap<object, symbol>();

/** The awilix name under which a bridge registers one of its classes. */
export function classKey(cls: object): symbol {
  let key = classKeys.get(cls);
  if (!key) {
    key = Symbol((cls as { name?: string }).name ?? 'class');
    classKeys.set(cls, key);
  }
  return key;
}

/**
 * A feature's awilix container, resolved by reference or class only. Everything in it is a singleton, so each
 * service is looked up once and then served from a map (handlers resolve on every request).
 */
export class ContainerScope implements FeatureScope {
  readonly #resolved = new Map<string | symbol, unknown>();

  constructor(
    readonly featureId: string,
    private readonly container: AwilixContainer,
  ) {}

  resolve<T>(target: ServiceRef<T> | Constructor<T>): T {
    const key = typeof target === 'function' ? classKey(target) : target.id;
    if (this.#resolved.has(key)) return this.#resolved.get(key) as T;
    if (!this.container.hasRegistration(key)) throw new Error(`feature ${this.featureId} cannot resolve ${describe(target)}: ${hint(target)}`);
    const value = this.container.resolve<T>(key);
    this.#resolved.set(key, value);
    return value;
  }
}

function describe(target: ServiceRef<unknown> | Constructor<unknown>): string {
  return typeof target === 'function' ? `class ${target.name}` : `service ${target.id}`;
}

function hint(target: ServiceRef<unknown> | Constructor<unknown>): string {
  return typeof target === 'function'
    ? 'it is not a singleton of its bridge'
    : 'it is neither its own nor exported by a feature it depends on and consumes';
}
