import { describe, expect, it } from 'vitest';
import { shallowCopy } from './shallow-copy.js';

describe('shallowCopy', () => {
  it('copies as a spread does: own members in order, `__proto__` as a member, not as the prototype', () => {
    const source = JSON.parse('{"b":1,"__proto__":{"polluted":true},"a":"x"}') as Record<string, unknown>;
    const copy = shallowCopy(source);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(Object.keys({ ...source }));
    expect(Object.getOwnPropertyDescriptor(copy, '__proto__')).toEqual(Object.getOwnPropertyDescriptor({ ...source }, '__proto__'));
    expect((copy as { polluted?: unknown }).polluted).toBeUndefined();
  });
});
