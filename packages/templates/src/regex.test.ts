import { describe, expect, it } from 'vitest';
import { compileSafeRegex, replaceAll } from './regex.js';

describe('compileSafeRegex', () => {
  it.each(['^CPU', 'disk-[0-9]+/host', '(foo|bar)?baz', '^(\\w+)\\.(\\w+)$', 'a{2,3}b', '(?<name>x+)', '[(+*]+', '(ab){1}c*', '(?i)critical', 'x{', '(?:\\d+)?'])(
    'accepts %s',
    (pattern) => {
      expect(() => compileSafeRegex(pattern)).not.toThrow();
    },
  );

  it.each(['(a*)*', '(a+){2,}', '((ab)+)+', '(\\d+\\s?)+$', '(a|b|ab)+', '(?:x+)*', '(a+)+?', '(a|aa){2,5}'])('refuses nested repetition %s', (pattern) => {
    expect(() => compileSafeRegex(pattern)).toThrow('nested quantifiers');
  });

  it('refuses backreferences', () => {
    expect(() => compileSafeRegex('(a)\\1')).toThrow('backreferences');
    expect(() => compileSafeRegex('(?<x>a)\\k<x>')).toThrow('backreferences');
  });

  it('refuses long and invalid patterns', () => {
    expect(() => compileSafeRegex('a'.repeat(257))).toThrow('longer than 256 characters');
    expect(() => compileSafeRegex('a'.repeat(256))).not.toThrow();
    expect(() => compileSafeRegex('(')).toThrow(/^invalid regular expression: Unterminated group$/);
  });

  it('turns Go inline flags into JavaScript flags', () => {
    expect(compileSafeRegex('(?is)a.b').flags).toBe('gis');
  });
});

describe('replaceAll', () => {
  it('bounds what it produces', () => {
    expect(() => replaceAll('', 'x'.repeat(100), 'a'.repeat(100), 5000)).toThrow('result is longer than 5000 characters');
    expect(replaceAll('', '-', 'ab', 5000)).toBe('-a-b-');
  });

  it('leaves unknown or unmatched groups empty and keeps a lone dollar', () => {
    expect(replaceAll('(a)', '[$01][$name][${1}][$]', 'a', 100)).toBe('[][][a][$]');
  });
});
