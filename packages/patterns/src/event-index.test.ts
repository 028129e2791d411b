import { describe, expect, it } from 'vitest';
import { EventPatternIndex, compileEventPatterns, compileSingleEventPattern, literalPrefix, type CompiledPatterns, type PatternEntity, type PatternEvent } from './index.js';

describe('literalPrefix', () => {
  it('takes the literal start of an anchored expression', () => {
    expect(literalPrefix('^host-1\\d*$')).toBe('host-1');
    expect(literalPrefix('^decommissioned-3-\\d+$')).toBe('decommissioned-3-');
    expect(literalPrefix('^maintenance 2:')).toBe('maintenance 2:');
    expect(literalPrefix('^web\\.example\\.com')).toBe('web.example.com');
    expect(literalPrefix('^(?P<code>[A-Z]+)')).toBeNull();
  });

  it('drops a quantified last character and refuses what a prefix cannot say', () => {
    expect(literalPrefix('^abc?d')).toBe('ab');
    expect(literalPrefix('^ab*')).toBe('a');
    expect(literalPrefix('^a{2}')).toBeNull();
    expect(literalPrefix('^a|b')).toBeNull();
    expect(literalPrefix('(?i)^abc')).toBeNull();
    expect(literalPrefix('abc')).toBeNull();
    expect(literalPrefix('^\\d+')).toBeNull();
  });
});

describe('EventPatternIndex', () => {
  const lists: [string, CompiledPatterns<PatternEvent, PatternEntity>][] = [
    ['connector literal', compileEventPatterns([{ connector: 'nagios' }])],
    ['component prefix', compileSingleEventPattern({ component: { regex_match: '^web-0\\d$' }, output: { regex_match: 'load' } })],
    ['two patterns', compileEventPatterns([{ connector: 'legacy' }, { output: { regex_match: '^maintenance:' } }])],
    ['empty string matches an absent field', compileEventPatterns([{ resource: '' }])],
    ['no requirement', compileEventPatterns([{ output: { regex_match: 'load' } }])],
    ['one pattern without requirement', compileEventPatterns([{ connector: 'x' }, { state: 2 }])],
    ['everything', compileEventPatterns([])],
    ['case-insensitive', compileEventPatterns([{ component: { regex_match: '(?i)^WEB' } }])],
    ['custom field', compileEventPatterns([{ customer: 'acme' }])],
  ];
  const index = new EventPatternIndex(lists.map(([, patterns]) => patterns.requirements));
  const events: PatternEvent[] = [
    { connector: 'nagios', component: 'web-01', output: 'load 12', state: 2, customer: 'acme' },
    { connector: 'legacy', component: 'db-01', output: 'maintenance: now', resource: 'cpu' },
    { connector: 'zabbix', component: 'WEB-02', output: 'maintenance: soon', state: 1 },
    { connector: 'x', component: 42, output: 'quiet', resource: null },
    { component: 'web-0', output: 'load' },
    {},
  ];

  it('keeps every list that matches, and rules out lists whose requirements the event misses', () => {
    for (const event of events) {
      const candidates = index.candidates(event);
      lists.forEach(([name, patterns], position) => {
        if (patterns.matches(event)) expect(candidates, `${name} on ${JSON.stringify(event)}`).toContain(position);
      });
    }
    const zabbix = index.candidates(events[2]!);
    // No resource reads as "": `resource: ""` may match.
    expect(zabbix).toEqual([2, 3, 4, 5, 6, 7, 8]);
    expect(index.candidates(events[0]!)).toEqual([0, 1, 3, 4, 5, 6, 7, 8]);
    // Found by both its patterns, listed once.
    expect(index.candidates({ connector: 'legacy', output: 'maintenance: now' })).toEqual([2, 3, 4, 5, 6, 7, 8]);
    expect(index.candidates(events[0]!, 4)).toEqual([4, 5, 6, 7, 8]);
    expect(index.candidates(events[0]!, 9)).toEqual([]);
    expect(index.fields.sort()).toEqual(['component', 'connector', 'output', 'resource']);
  });

  it('finds each prefix among prefixes of the same length, however much of their start they share', () => {
    const prefixes = ['^host-1', '^host-2', '^hast-3', '^db-04', '^host-22'];
    const byPrefix = new EventPatternIndex(prefixes.map((regex) => compileEventPatterns([{ component: { regex_match: regex } }]).requirements));
    expect(byPrefix.candidates({ component: 'host-22x' })).toEqual([1, 4]);
    expect(byPrefix.candidates({ component: 'hast-3' })).toEqual([2]);
    expect(byPrefix.candidates({ component: 'db-04' })).toEqual([3]);
    expect(byPrefix.candidates({ component: 'host-' })).toEqual([]);
    expect(byPrefix.candidates({ component: 'ghost-1' })).toEqual([]);
  });

  it('lists many candidates from several lists in order, once each', () => {
    // 150 lists: every third one on the component's prefix, the others on the connector, in turns (more than 64 found).
    const specs = Array.from({ length: 150 }, (_, i) => (i % 3 === 0 ? { component: { regex_match: `^host-${i % 2}` } } : { connector: i % 2 === 0 ? 'a' : 'b' }));
    const many = new EventPatternIndex(specs.map((spec) => compileEventPatterns([spec]).requirements));
    const expected = (connector: string, component: string) =>
      specs.flatMap((spec, i) => ('connector' in spec ? (spec.connector === connector ? [i] : []) : component.startsWith(`host-${i % 2}`) ? [i] : []));
    for (const [connector, component] of [['a', 'host-0x'], ['b', 'host-1'], ['a', 'db']] as const) {
      const found = many.candidates({ connector, component });
      expect(found).toEqual(expected(connector, component));
    }
    expect(many.candidates({ connector: 'a', component: 'host-0' }).length).toBeGreaterThan(64);
  });
});
