import { describe, expect, it } from 'vitest';
import { assertSafeFilter, assertSafeRegex } from './filter-safety.js';

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
  ])('refuses %j', (filter, message) => {
    expect(() => assertSafeFilter(filter)).toThrow(message);
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
