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
import type { Doc } from './store/port.js';

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

/** A collection of the store: its name, written once, and the type of its documents. */
export interface CollectionRef<T extends Doc = Doc> {
  readonly kind: 'collection';
  readonly name: string;
  /** Compile-time only: the document type (in both directions, as readers and writers agree on it). */
  readonly [carried]?: (doc: T) => T;
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
 * Names a collection once, with the type of its documents: `f.collection(ref)` declares it, `store.collection(ref)`
 * and repositories reach it, batch operations name it with `ref.name`.
 */
export function collectionRef<T extends Doc>(name: string): CollectionRef<T> {
  if (!/^[a-zA-Z_][a-zA-Z0-9_.-]*$/.test(name)) throw new Error(`collection name ${JSON.stringify(name)} must be letters, digits, _ . -`);
  return Object.freeze({ kind: 'collection', name, toString: () => `collection ${name}` });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any constructor signature
export type Constructor<T> = abstract new (...args: any[]) => T;

/**
 * A constructor parameter decorator that compiles only where the parameter accepts a `T`: the compiler sees the
 * decorated class and the parameter's index (a literal), so `@injectRef(kernelRefs.clock) clock: string` is an error.
 */
export type RefParameterDecorator<T> = <C extends Constructor<unknown>, I extends number>(
  target: C,
  propertyKey: undefined,
  parameterIndex: I & (T extends ConstructorParameters<C>[I] ? unknown : never),
) => void;

/**
 * Injects the service a reference names into a tsyringe-built class (`@injectRef(kernelRefs.clock) clock: Clock`);
 * the feature's bridge imports it (kernel services always, other features' services when listed in `imports`). The
 * parameter's type must accept the reference's type (checked by the compiler, see `RefParameterDecorator`).
 */
export function injectRef<T>(ref: ServiceRef<T>): RefParameterDecorator<T> {
  return inject(ref.id) as RefParameterDecorator<T>;
}

/**
 * What a feature's hooks, handlers, jobs, health checks and contributions resolve from: the services of the kernel
 * (`kernelRefs`), the feature's own (by reference, or a class of its bridge by the class itself) and what its
 * dependencies export and it consumes. Nothing else is visible.
 */
export interface FeatureScope {
  readonly featureId: string;
  resolve<T>(target: ServiceRef<T> | Constructor<T>): T;
}
