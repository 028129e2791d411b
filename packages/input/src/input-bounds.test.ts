import { describe, expect, it } from 'vitest';
import { object, string } from 'yup';
import { assertWithinInputBounds, idField, inputBounds } from './input-bounds.js';
import { validate } from './validation.js';

describe('input bounds', () => {
  it('refuses, wherever they are, strings over 64 KiB, lists over 10000 elements, objects over 1000 keys, nesting over 512', () => {
    expect(() => assertWithinInputBounds({ a: [{ b: 'x'.repeat(inputBounds.longTextLength) }] })).not.toThrow();
    expect(() => assertWithinInputBounds({ a: [{ b: 'x'.repeat(inputBounds.longTextLength + 1) }] })).toThrow('a[0].b must be at most 65536 characters');
    expect(() => assertWithinInputBounds({ list: new Array(10001).fill(1) })).toThrow('list must have at most 10000 elements');
    expect(() => assertWithinInputBounds({ name: 'caf\u00e9 \ud83d\ude00' })).not.toThrow();
    expect(() => assertWithinInputBounds({ name: 'x\ud800y' })).toThrow('name must be valid Unicode text (it holds a lone surrogate)');
    expect(() => assertWithinInputBounds({ ['\udc00']: 1 })).toThrow('a key of the value must be valid Unicode text');
    expect(() => assertWithinInputBounds({ infos: Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`k${i}`, i])) })).toThrow('infos must have at most 1000 keys');
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(() => assertWithinInputBounds({ deep })).toThrow(expect.objectContaining({ code: 'VALIDATION', message: expect.stringMatching(/^deep(\[0\])+ is nested deeper than 512 levels$/) }));
  });

  it('applies in validate before the schema, and the field helpers give each kind its bound', () => {
    const schema = object({ _id: idField(string()) });
    expect(validate(schema, { _id: 'i'.repeat(255) })).toEqual({ _id: 'i'.repeat(255) });
    expect(() => validate(schema, { _id: 'i'.repeat(256) })).toThrow('_id must be at most 255 characters');
    expect(() => validate(object(), { ignored: 'x'.repeat(1_000_000) })).toThrow('ignored must be at most 65536 characters');
    expect(validate(object({ metadata: string() }), { metadata: 'x'.repeat(100_000) }, { bounded: false }).metadata).toHaveLength(100_000);
  });
});
