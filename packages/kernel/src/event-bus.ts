import type { EventRef } from './refs.js';

/**
 * The in-process bus of domain events. An event is declared by the feature that owns it (`eventRef<P>(id)`,
 * registered with `f.event(ref)`); the kernel gives every feature a view of the bus on which it emits only its
 * own events and listens only to its own or those it consumes (the view refuses others, naming them).
 *
 * Handlers run in subscription order and are awaited; one failing handler does not stop the others, and
 * `emit` reports every failure at once.
 */
type Handler<P> = (payload: P) => void | Promise<void>;

/** Which events a feature's view of the bus may emit and hear. */
export interface EventAccess {
  featureId: string;
  emits: ReadonlySet<string>;
  hears: ReadonlySet<string>;
}

export class EventBus {
  #handlers = new Map<string, Set<Handler<never>>>();
  #access: EventAccess | undefined;

  /** A view sharing this bus's subscriptions, restricted to what one feature declared. */
  restrictedTo(access: EventAccess): EventBus {
    const view = new EventBus();
    view.#handlers = this.#handlers;
    view.#access = access;
    return view;
  }

  on<P>(event: EventRef<P>, handler: Handler<P>): () => void {
    if (this.#access && !this.#access.hears.has(event.id)) {
      throw new Error(`feature ${this.#access.featureId} listens to event ${event.id}, which it neither declares nor consumes (f.consume)`);
    }
    let set = this.#handlers.get(event.id);
    if (!set) {
      set = new Set();
      this.#handlers.set(event.id, set);
    }
    set.add(handler as Handler<never>);
    return () => set.delete(handler as Handler<never>);
  }

  async emit<P>(event: EventRef<P>, payload: P): Promise<void> {
    if (this.#access && !this.#access.emits.has(event.id)) {
      throw new Error(`feature ${this.#access.featureId} emits event ${event.id}, which it does not declare`);
    }
    const set = this.#handlers.get(event.id);
    if (!set || set.size === 0) return;
    const failures: unknown[] = [];
    for (const handler of [...set]) {
      try {
        // Awaited only when it answers a promise: a handler with nothing to do costs no microtask.
        const pending = (handler as Handler<P>)(payload) as unknown;
        if (pending !== undefined) await pending;
      } catch (err) {
        failures.push(err);
      }
    }
    if (failures.length === 1) throw failures[0];
    if (failures.length > 1) throw new AggregateError(failures, `${failures.length} handlers of "${event.id}" failed`);
  }

  listenerCount<P>(event: EventRef<P>): number {
    return this.#handlers.get(event.id)?.size ?? 0;
  }
}
