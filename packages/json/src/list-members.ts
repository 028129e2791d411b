/**
 * The members of lists that are never changed in place (stored documents, cached entities), kept while the list
 * lives: checking a few values against a list of 100,000 ids costs those values, not a set made of the whole list
 * each time. A list made from another by `appendToList` takes its set over.
 */
const members = new WeakMap<readonly unknown[], Set<unknown>>();

/** The set of `list`'s members, made at the first call and kept with the list. `list` must never change in place. */
export function memberSet<T>(list: readonly T[]): ReadonlySet<T> {
  let set = members.get(list);
  if (!set) members.set(list, (set = new Set(list)));
  return set as Set<T>;
}

/**
 * `list` with `added` (none of which it holds) at the end, as a new list; the member set of `list`, if it has one,
 * moves to the new list. `list` itself, should it still be used (a write that failed), makes a new set when asked.
 */
export function appendToList<T>(list: readonly T[], added: Iterable<T>): T[] {
  const next = [...list, ...added];
  const set = members.get(list);
  if (set) {
    for (let i = list.length; i < next.length; i++) set.add(next[i]);
    members.delete(list);
    members.set(next, set);
  }
  return next;
}
