/**
 * A typed in-process event bus. Features declare their events by augmenting `VigieEvents`:
 *
 *   declare module '@vigie/kernel' { interface VigieEvents { 'entities.changed': { ids: string[] } } }
 *
 * Handlers run in subscription order and are awaited; one failing handler does not stop the others, and
 * `emit` reports every failure at once.
 */
export interface VigieEvents {
  /**
   * Entities of the context graph were created, changed or deleted (imports, event processing). Declared here
   * because producers (context graph) and consumers (pbehaviors, weather) do not depend on each other.
   */
  'entities.changed': { ids: readonly string[] };
}

type Handler<P> = (payload: P) => void | Promise<void>;

export class EventBus<Events extends object = VigieEvents> {
  readonly #handlers = new Map<keyof Events, Set<Handler<never>>>();

  on<K extends keyof Events>(event: K, handler: Handler<Events[K]>): () => void {
    let set = this.#handlers.get(event);
    if (!set) {
      set = new Set();
      this.#handlers.set(event, set);
    }
    set.add(handler as Handler<never>);
    return () => set.delete(handler as Handler<never>);
  }

  async emit<K extends keyof Events>(event: K, payload: Events[K]): Promise<void> {
    const set = this.#handlers.get(event);
    if (!set || set.size === 0) return;
    const failures: unknown[] = [];
    for (const handler of [...set]) {
      try {
        await (handler as Handler<Events[K]>)(payload);
      } catch (err) {
        failures.push(err);
      }
    }
    if (failures.length === 1) throw failures[0];
    if (failures.length > 1) throw new AggregateError(failures, `${failures.length} handlers of "${String(event)}" failed`);
  }

  listenerCount<K extends keyof Events>(event: K): number {
    return this.#handlers.get(event)?.size ?? 0;
  }
}
