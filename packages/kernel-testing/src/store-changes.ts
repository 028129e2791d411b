import type { Store } from '@vigie/kernel';

/**
 * Resolves once `store` tells that `collection` changed (`Store.changes`). Call it before the write it waits for: a
 * rule cache of the same node subscribed earlier, so it heard first, and the next thing that node does sees the
 * write whatever the machine's load. Throws at once on a store that tells of no change, rather than leaving the
 * test to its timeout.
 */
export function changeHeard(store: Store, collection: string): Promise<void> {
  const { changes } = store;
  if (!changes) throw new Error(`the store tells of no change: a change to ${collection} cannot be waited for`);
  return new Promise<void>((resolve) => {
    const unsubscribe = changes.subscribe((changed) => {
      if (changed !== collection) return;
      unsubscribe();
      resolve();
    });
  });
}
