import { describe, expect, it } from 'vitest';
import { appendToList, memberSet } from './list-members.js';

describe('memberSet and appendToList', () => {
  it('keep each version of a list right, the latest and the ones before it', () => {
    const first = ['a', 'b', 'c'];
    expect(memberSet(first).has('b')).toBe(true);
    const second = appendToList(first, ['d']);
    expect(second).toEqual(['a', 'b', 'c', 'd']);
    expect(memberSet(second).has('d')).toBe(true);
    // The version before does not hold what was added after it.
    expect(memberSet(first).has('d')).toBe(false);
    const third = appendToList(second, new Set(['e']));
    expect(memberSet(third).has('e')).toBe(true);
    expect(memberSet(second).has('e')).toBe(false);
    expect(first).toEqual(['a', 'b', 'c']);
    // A list never asked about gets no set until asked.
    expect(appendToList(['x'], ['y'])).toEqual(['x', 'y']);
  });
});
