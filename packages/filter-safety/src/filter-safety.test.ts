import { describe, expect, it } from 'vitest';
import { assertNoCodeExecution, assertSafeFilter, assertSafeRegex, isSafeFieldPath, parseSafeFilter } from './filter-safety.js';

describe('assertSafeFilter', () => {
  it('accepts ordinary query operators', () => {
    const filter = { $or: [{ name: { $regex: '^web', $options: 'i' } }, { 'infos.site.value': { $in: ['a', 'b'] } }], type: 'watcher' };
    expect(assertSafeFilter(filter)).toBe(filter);
  });

  it.each([
    [{ $where: 'sleep(1000)' }, 'operator $where is not allowed'],
    [{ a: { $function: {} } }, 'operator $function is not allowed'],
    [{ $expr: { $gt: ['$a', 1] } }, 'operator $expr is not allowed'],
    [{ a: { $regex: '(a+)+$' } }, 'nested quantifiers'],
    [{ a: { $regex: '(x|xx)*y' } }, 'nested quantifiers'],
    [{ a: { $regex: '(a)\\1' } }, 'backreferences'],
    [{ a: { $regex: '[' } }, 'invalid regular expression'],
    [{ a: { $regex: 'a', $options: 'g' } }, '$options may only hold'],
    [{ a: { $regex: 'x'.repeat(300) } }, 'longer than 256'],
    [[{ a: 1 }], 'must be a JSON object'],
    [{ $ne: null }, 'unknown top level operator $ne'],
    [{ $regex: 'a' }, 'unknown top level operator $regex'],
    [{ $or: [{ a: 1 }, { $in: [1] }] }, 'unknown top level operator $in'],
    [{ $or: { a: 1 } }, '$or needs a list'],
    [{ $and: [] }, '$and needs a non-empty list'],
    [{ $or: [1] }, 'each element of $or must be an object'],
    [{ a: { $or: [{ b: 1 }] } }, 'cannot be used inside a field condition'],
    [{ a: { $gt: 1, b: 2 } }, 'cannot mix operators'],
    [{ a: { $in: 'x' } }, '$in needs a list'],
    [{ a: { $size: -1 } }, '$size needs a non-negative integer'],
    [{ a: { $exists: 'yes' } }, '$exists needs true or false'],
    [{ a: { $not: 'x' } }, '$not needs an object of operators'],
    [{ a: { $options: 'i' } }, '$options needs a $regex'],
    [{ a: { $eq: { $gt: 1 } } }, 'operator $gt is not allowed inside a value'],
    [{ a: { b: { $where: '1' } } }, 'operator $where is not allowed'],
    [{ a: { $elemMatch: { $where: '1' } } }, 'operator $where is not allowed'],
  ])('refuses %j', (filter, message) => {
    expect(() => assertSafeFilter(filter)).toThrow(message);
  });

  it('accepts each operator where the grammar puts it', () => {
    const filter = {
      $and: [{ a: { $not: { $regex: 'x' } } }, { $nor: [{ b: { $exists: false } }] }],
      c: { $elemMatch: { d: 1, e: { $gte: 2 } } },
      f: { $elemMatch: { $gt: 1, $lt: 5 } },
      g: { $size: 2, $all: [1, 2] },
      h: { nested: 'literal object' },
      i: [1, 2],
      j: { $ne: null, $nin: [1] },
    };
    expect(assertSafeFilter(filter)).toBe(filter);
  });

  it('bounds depth and size', () => {
    let deep: Record<string, unknown> = { a: 1 };
    for (let i = 0; i < 20; i++) deep = { $and: [deep] };
    expect(() => assertSafeFilter(deep)).toThrow('nested deeper');
    expect(() => assertSafeFilter({ a: { $in: Array.from({ length: 20000 }, (_, i) => i) } })).toThrow('more than');
  });
});

describe('assertSafeRegex', () => {
  it.each(['^CPU', 'disk-[0-9]+/host', '(foo|bar)?baz', '^(\\w+)\\.(\\w+)$', 'a{2,3}b', '(?<name>x+)'])('accepts %s', (re) => {
    expect(() => assertSafeRegex(re)).not.toThrow();
  });
  it.each(['(a*)*', '(a+){2,}', '((ab)+)+', '(\\d+\\s?)+$', '(a|b|ab)+'])('refuses %s', (re) => {
    expect(() => assertSafeRegex(re)).toThrow();
  });
});

describe('field paths', () => {
  it('refuses a filter field or sort key reaching an object prototype, an operator or an empty segment', () => {
    expect(['t', 'v.state.val', 'infos.site.value'].every(isSafeFieldPath)).toBe(true);
    expect(['__proto__', 'v.__proto__', 'a.constructor.x', 'prototype', 'v.$where', 'a..b', ''].some(isSafeFieldPath)).toBe(false);
    expect(() => assertSafeFilter({ 'v.__proto__.x': 1 })).toThrow("field v.__proto__.x is not allowed: it names an object's prototype");
    expect(() => assertSafeFilter({ $and: [{ 'a.__proto__': 1 }] })).toThrow('is not allowed');
  });
});

describe('assertNoCodeExecution', () => {
  const nested = (n: number): unknown => {
    let value: unknown = 1;
    for (let i = 0; i < n; i++) value = { a: value };
    return value;
  };

  it('walks any depth', () => {
    expect(() => assertNoCodeExecution(nested(100_000))).not.toThrow();
    expect(() => assertNoCodeExecution({ a: [nested(50_000), { $where: '1' }] })).toThrow('operator $where is not allowed');
  });
});

describe('parseSafeFilter', () => {
  it('reads JSON text or an object, checked; null when absent or blank; a 400 that says what is wrong', () => {
    expect(parseSafeFilter(undefined)).toBeNull();
    expect(parseSafeFilter('  ')).toBeNull();
    expect(parseSafeFilter('{"v.state.val":3}')).toEqual({ 'v.state.val': 3 });
    expect(parseSafeFilter({ d: { $in: ['a'] } })).toEqual({ d: { $in: ['a'] } });
    expect(() => parseSafeFilter('{nope')).toThrow(expect.objectContaining({ status: 400, description: expect.stringMatching(/^Invalid filter: not valid JSON \(/) }));
    expect(() => parseSafeFilter('[1]')).toThrow(expect.objectContaining({ status: 400, description: 'Invalid filter: it must be a JSON object' }));
    expect(() => parseSafeFilter('{"$where":"1"}')).toThrow(expect.objectContaining({ code: 'UNSAFE_FILTER' }));
  });
});
