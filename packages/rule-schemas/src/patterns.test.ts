import { describe, expect, it } from 'vitest';
import { object } from 'yup';
import { hasCode, ErrorCodes } from '@vigie/kernel';
import { validate } from '@vigie/input';
import { patternListSchema, patternRegExp, patternSchema, regexMatchProblem, regexProblem } from './index.js';

describe('patternRegExp', () => {
  it('accepts the Go spelling of leading inline flags and named groups', () => {
    const regex = patternRegExp('(?i)^cpu (?P<load>\\d+)%');
    expect(regex.flags).toBe('i');
    expect(regex.exec('CPU 93%')?.groups).toEqual({ load: '93' });
  });

  it('leaves an escaped parenthesis alone', () => {
    expect(patternRegExp('\\(?P<x').test('(P<x')).toBe(true);
  });

  it('refuses invalid, backtracking and overlong expressions with the kernel error', () => {
    for (const expression of ['(', '(a+)+$', '(a|b)*c', '(x)\\1', 'a'.repeat(257)]) {
      let thrown: unknown;
      try {
        patternRegExp(expression);
      } catch (err) {
        thrown = err;
      }
      expect(hasCode(thrown, ErrorCodes.UnsafeFilter), expression).toBe(true);
    }
    expect(regexProblem('(a+)+')).toMatch(/nested quantifiers/);
    expect(regexProblem('CPU')).toBeNull();
  });
});

describe('regexMatchProblem', () => {
  it('finds regex_match expressions at any depth and names where they are', () => {
    expect(regexMatchProblem([{ v: { resource: { regex_match: 'CPU' } } }], 'alarm_patterns')).toBeNull();
    expect(regexMatchProblem([{}, { v: { resource: { regex_match: '(a+)+' } } }], 'alarm_patterns')).toMatch(
      /^alarm_patterns\[1\]\.v\.resource\.regex_match is not an accepted regular expression: nested quantifiers/,
    );
    expect(regexMatchProblem({ component: { regex_match: 3 } }, 'pattern')).toBe('pattern.component.regex_match should be a string');
  });

  it('refuses values nested deeper than the bound', () => {
    let deep: unknown = { regex_match: 'x' };
    for (let i = 0; i < 40; i += 1) deep = { a: deep };
    expect(regexMatchProblem(deep, 'pattern')).toMatch(/is nested deeper than 16 levels$/);
  });
});

describe('patternListSchema', () => {
  const schema = object({ alarm_patterns: patternListSchema() }).strict();
  const problem = (value: unknown): string | null => {
    try {
      validate(schema, { alarm_patterns: value }, { strict: true });
      return null;
    } catch (err) {
      return (err as { detail: string }).detail;
    }
  };

  it('accepts a list of objects, null or nothing', () => {
    expect(problem([{ v: { resource: { regex_match: '^disk' } } }])).toBeNull();
    expect(problem(null)).toBeNull();
    expect(problem(undefined)).toBeNull();
  });

  it('refuses other shapes and unsafe expressions, naming the field', () => {
    expect(problem({})).toBe('alarm_patterns should be a list of objects or null');
    expect(problem(['x'])).toBe('alarm_patterns[0] should be an object');
    expect(problem([{}, null])).toBe('alarm_patterns[1] should be an object');
    expect(problem([{ resource: { regex_match: '(a|aa)*b' } }])).toMatch(/^alarm_patterns\[0\]\.resource\.regex_match is not an accepted/);
  });

  it('takes the caller’s wording', () => {
    const worded = object({ patterns: patternListSchema({ list: 'The patterns field should be a list.', regex: (problem) => `Bad rule: ${problem}.` }) });
    expect(() => validate(worded, { patterns: 'x' }, { strict: true })).toThrow('The patterns field should be a list.');
    expect(() => validate(worded, { patterns: [{ a: { regex_match: 1 } }] }, { strict: true })).toThrow('Bad rule: patterns[0].a.regex_match should be a string.');
  });

  it('does not read user keys as message placeholders', () => {
    expect(problem([{ '${path}': { regex_match: '(' } }])).toMatch(/^alarm_patterns\[0\]\.\$\{path\}\.regex_match/);
  });
});

describe('patternSchema', () => {
  it('checks one pattern object', () => {
    const schema = object({ pattern: patternSchema() });
    expect(() => validate(schema, { pattern: [] }, { strict: true })).toThrow('pattern should be an object');
    expect(() => validate(schema, { pattern: { output: { regex_match: '(a+)*' } } }, { strict: true })).toThrow(/pattern\.output\.regex_match/);
    expect(validate(schema, { pattern: { component: 'x' } }, { strict: true })).toEqual({ pattern: { component: 'x' } });
    const worded = object({ pattern: patternSchema({ object: 'The pattern field should be an object.', regex: (problem) => `Bad: ${problem}` }) });
    expect(() => validate(worded, { pattern: 'x' }, { strict: true })).toThrow('The pattern field should be an object.');
    expect(() => validate(worded, { pattern: { output: { regex_match: '(' } } }, { strict: true })).toThrow(/^Bad: pattern\.output\.regex_match is not an accepted/);
  });
});

describe('pattern list bounds', () => {
  it('refuses more than 100 patterns in one list, in the default or the group wording', () => {
    const patterns = (n: number) => Array.from({ length: n }, () => ({ v: { resource: 'x' } }));
    expect(() => validate(object({ alarm_patterns: patternListSchema() }), { alarm_patterns: patterns(100) }, { strict: true })).not.toThrow();
    expect(() => validate(object({ alarm_patterns: patternListSchema() }), { alarm_patterns: patterns(101) }, { strict: true })).toThrow('alarm_patterns must have at most 100 elements');
    expect(() => validate(object({ p: patternListSchema({ tooMany: 'too many: ${max}' }) }), { p: patterns(101) }, { strict: true })).toThrow('too many: 100');
  });
});
