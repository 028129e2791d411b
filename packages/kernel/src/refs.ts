/**
 * Typed references: the one way features name what they share. A reference is a plain object with an id
 * (`<owner>.<name>`, unique in a composition) and a type parameter that only the compiler sees, so that
 * `scope.resolve(alarmChangesRef)` returns an `AlarmChangeService` with no string and no cast.
 *
 * - `serviceRef<T>` names a service a feature exports (or the kernel provides, see `kernelRefs`).
 * - `extensionPointRef<T>` names an extension point; contributions are `T`s.
 * - `eventRef<P>` names a domain event on the kernel bus; `P` is its payload.
 *
 * The owning package exports the reference; consumers import it and list the owner in `dependsOn`.
 */
import 'reflect-metadata';
import { inject } from 'tsyringe';

declare const carried: unique symbol;

interface RefBase<K extends string> {
  readonly kind: K;
  /** `<owner>.<name>`: the owning feature's id (or `kernel`), a dot, a name. */
  readonly id: string;
}

export interface ServiceRef<T> extends RefBase<'service'> {
  /** Compile-time only: the service's type. */
  readonly [carried]?: T;
}

export interface ExtensionPointRef<T> extends RefBase<'extension-point'> {
  /** Compile-time only: the type of one contribution. */
  readonly [carried]?: T;
}

export interface EventRef<P> extends RefBase<'event'> {
  /** Compile-time only: the payload type (in both directions, as emitters and handlers agree on it). */
  readonly [carried]?: (payload: P) => P;
}

export type AnyServiceRef = ServiceRef<unknown>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list of events with unrelated payloads
export type AnyEventRef = EventRef<any>;
export type AnyExtensionPointRef = ExtensionPointRef<unknown>;

const refIdPattern = /^[a-z][a-z0-9]*(-[a-z0-9]+)*\.[a-zA-Z0-9][a-zA-Z0-9.-]*$/;

function makeRef<K extends string>(kind: K, id: string): RefBase<K> {
  if (!refIdPattern.test(id)) throw new Error(`reference id ${JSON.stringify(id)} must read <owner>.<name>`);
  return Object.freeze({ kind, id, toString: () => `${kind} ${id}` });
}

export function serviceRef<T>(id: string): ServiceRef<T> {
  return makeRef('service', id);
}

export function extensionPointRef<T>(id: string): ExtensionPointRef<T> {
  return makeRef('extension-point', id);
}

export function eventRef<P>(id: string): EventRef<P> {
  return makeRef('event', id);
}

/**
 * Injects the service a reference names into a tsyringe-built class (`@injectRef(kernelRefs.clock) clock: Clock`);
 * the feature's bridge imports it (kernel services always, other features' services when listed in `imports`).
 */
export function injectRef<T>(ref: ServiceRef<T>): ReturnType<typeof inject> {
  return inject(ref.id);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any constructor signature
export type Constructor<T> = abstract new (...args: any[]) => T;

/**
 * What a feature's hooks, handlers, jobs, health checks and contributions resolve from: the services of the kernel
 * (`kernelRefs`), the feature's own (by reference, or a class of its bridge by the class itself) and what its
 * dependencies export and it consumes. Nothing else is visible.
 */
export interface FeatureScope {
  readonly featureId: string;
  resolve<T>(target: ServiceRef<T> | Constructor<T>): T;
}
