/**
 * The copy `{ ...source }` makes (own enumerable string keys, in order), built member by member. Members added to a
 * spread copy later are slow: V8 (Node 20) gives such a copy a map that keeps no transitions, so each added member
 * makes a new map, and the copies no longer share one, which slows every later read. Events get members added on
 * their way: a default timestamp at acceptance, the event filter's fields in the pipeline.
 */
export function shallowCopy<T extends object>(source: T): T {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    const value = (source as Record<string, unknown>)[key];
    // An assignment to `__proto__` would set the prototype: a spread defines it as an own member.
    if (key === '__proto__') Object.defineProperty(copy, key, { value, writable: true, enumerable: true, configurable: true });
    else copy[key] = value;
  }
  return copy as T;
}
