import { describe, expect, it } from 'vitest';
import { adoptJson, cloneJson, isJsonObject, jsonEqual, maxStoredDepth } from './json.js';

const nested = (n: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < n; i++) value = { a: value };
  return value;
};

describe('deep values', () => {
  it('cloneJson refuses documents nested deeper than maxStoredDepth instead of overflowing the stack', () => {
    expect(cloneJson(nested(maxStoredDepth - 1))).toEqual(nested(maxStoredDepth - 1));
    expect(() => cloneJson(nested(100_000))).toThrow(expect.objectContaining({ code: 'STORE_FAILURE', message: expect.stringContaining(`nested deeper than ${maxStoredDepth} levels`) }));
  });

  it('jsonEqual walks any depth', () => {
    expect(jsonEqual(nested(100_000), nested(100_000))).toBe(true);
    expect(jsonEqual(nested(100_000), nested(99_999))).toBe(false);
  });
});

describe('jsonEqual', () => {
  it('ignores key order and tells arrays, objects, lengths and values apart', () => {
    expect(jsonEqual({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(jsonEqual({ a: [] }, { a: {} })).toBe(false);
    expect(jsonEqual([1, 2], [1, 2, 3])).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(jsonEqual({ a: null }, { b: null })).toBe(false);
    expect(jsonEqual({ a: { b: 'x' } }, { a: { b: 'y' } })).toBe(false);
  });
});

describe('cloneJson', () => {
  it('names the field holding a value JSON cannot carry', () => {
    expect(() => cloneJson({ a: { b: [1, Number.NaN] } })).toThrow('field a.b[1] holds a non-JSON value (NaN)');
    expect(() => cloneJson({ list: [{ at: new Date() }] })).toThrow('field list[0].at holds a non-JSON value (Date)');
    expect(() => cloneJson([1, undefined])).toThrow('field [1] holds a non-JSON value (undefined)');
    expect(() => cloneJson({ k: () => 1 }, 'base.path')).toThrow('field base.path.k holds a non-JSON value (function)');
    expect(cloneJson({ a: [1, { b: 'x' }], dropped: undefined })).toEqual({ a: [1, { b: 'x' }] });
  });
});

describe('adoptJson', () => {
  it('checks a document as cloneJson does and returns it, not a copy, its undefined members deleted', () => {
    const doc = { a: [1, { b: 'x' }], dropped: undefined };
    expect(adoptJson(doc)).toBe(doc);
    expect(doc).toEqual({ a: [1, { b: 'x' }] });
    expect(Object.keys(doc)).toEqual(['a']);
    expect(() => adoptJson({ a: { b: [1, Number.NaN] } })).toThrow('field a.b[1] holds a non-JSON value (NaN)');
    expect(() => adoptJson({ list: [{ at: new Date() }] })).toThrow('field list[0].at holds a non-JSON value (Date)');
    expect(() => adoptJson([1, undefined])).toThrow('field [1] holds a non-JSON value (undefined)');
    expect(() => adoptJson(nested(100_000))).toThrow(expect.objectContaining({ code: 'STORE_FAILURE', message: expect.stringContaining(`nested deeper than ${maxStoredDepth} levels`) }));
  });
});

describe('isJsonObject', () => {
  it('takes objects, whatever their prototype, and refuses null, arrays and scalars', () => {
    for (const value of [{}, { a: 1 }, Object.create(null) as object, new Date(0)]) expect(isJsonObject(value)).toBe(true);
    for (const value of [null, undefined, [], [1], 'a', 1, true]) expect(isJsonObject(value)).toBe(false);
  });
});
