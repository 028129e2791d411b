import { describe, expect, it } from 'vitest';
import { compileAlarmPatterns, compileEntityPatterns, compileEventPatterns, compileSingleEventPattern, isPatternError } from './index.js';

const event = {
  event_type: 'check',
  source_type: 'resource',
  connector: 'nagios',
  connector_name: 'nagios-1',
  component: 'web-01',
  resource: 'cpu',
  state: 2,
  timestamp: 1_700_000_000,
  output: 'load is 12 on core 3',
  customer: 'acme',
  tags: ['prod', 'eu'],
  weight: 7,
};

const entity = {
  _id: 'cpu/web-01',
  name: 'cpu',
  type: 'resource',
  component: 'web-01',
  enabled: true,
  infos: { site: { name: 'site', description: 'where', value: 'paris' }, rack: { value: 12 }, roles: { value: ['db', 'web'] } },
};

function compileError(compile: () => unknown): string {
  try {
    compile();
  } catch (err) {
    expect(isPatternError(err)).toBe(true);
    return (err as Error).message;
  }
  throw new Error('expected a pattern error');
}

describe('pattern lists', () => {
  it('treat absent, null, [] and an empty pattern as matching everything', () => {
    for (const raw of [undefined, null, [], [{}], [null]]) {
      const list = compileEventPatterns(raw);
      expect(list.matchesEverything).toBe(true);
      expect(list.matches({})).toBe(true);
      expect(list.match({})).toEqual({});
    }
  });

  it('OR the patterns of a list and AND the fields of one pattern', () => {
    const list = compileEventPatterns([
      { component: 'db-01', resource: 'cpu' },
      { component: 'web-01', resource: 'disk' },
    ]);
    expect(list.matchesEverything).toBe(false);
    expect(list.matches(event)).toBe(false);
    expect(list.matches({ ...event, resource: 'disk' })).toBe(true);
    expect(compileEventPatterns([{ component: 'web-01', resource: 'cpu' }, { component: 'x' }]).matches(event)).toBe(true);
  });

  it('refuse a list that is not a list, or holds something that is not a pattern', () => {
    expect(compileError(() => compileEventPatterns({ component: 'x' }))).toMatch(/event_patterns: should be a list/);
    expect(compileError(() => compileEventPatterns(['x']))).toMatch(/event_patterns\[0\]: should be a pattern object/);
  });

  it('compile a single pattern object (the event filter `pattern`)', () => {
    expect(compileSingleEventPattern(undefined).matches(event)).toBe(true);
    expect(compileSingleEventPattern({ state: 2 }).matches(event)).toBe(true);
    expect(compileSingleEventPattern({ state: 3 }).matches(event)).toBe(false);
  });
});

describe('event patterns', () => {
  it('compare literals for equality', () => {
    expect(compileEventPatterns([{ connector: 'nagios', state: 2, source_type: 'resource' }]).matches(event)).toBe(true);
    expect(compileEventPatterns([{ connector: 'Nagios' }]).matches(event)).toBe(false);
    expect(compileEventPatterns([{ debug: false }]).matches(event)).toBe(true);
    expect(compileEventPatterns([{ debug: true }]).matches(event)).toBe(false);
  });

  it('run regex_match as an unanchored search, anchored only with ^…$', () => {
    expect(compileEventPatterns([{ output: { regex_match: 'is 1' } }]).matches(event)).toBe(true);
    expect(compileEventPatterns([{ output: { regex_match: '^is 1' } }]).matches(event)).toBe(false);
    expect(compileEventPatterns([{ component: { regex_match: '(?i)^WEB-\\d+$' } }]).matches(event)).toBe(true);
  });

  it('capture named groups as RegexMatch.<GoField>.<name>', () => {
    const list = compileEventPatterns([{ output: { regex_match: 'load is (?P<load>\\d+) on core (?P<core>\\d+)' }, customer: { regex_match: '(?P<first>.)' } }]);
    expect(list.match(event)).toEqual({ Output: { load: '12', core: '3' }, ExtraInfos: { customer: { first: 'a' } } });
    expect(list.match({ ...event, output: 'idle' })).toBeNull();
  });

  it('capture groups in the order the expression names them, an unmatched one as ""', () => {
    const output = compileEventPatterns([{ output: { regex_match: '(?P<zone>x)?(?P<load>\\d+)' } }]).match(event)?.Output;
    expect(output).toEqual({ zone: '', load: '12' });
    expect(Object.keys(output as object)).toEqual(['zone', 'load']);
  });

  it('compare integers and times with >, >=, <, <=, all of them AND-ed', () => {
    expect(compileEventPatterns([{ state: { '>=': 2, '<': 3 } }]).matches(event)).toBe(true);
    expect(compileEventPatterns([{ state: { '>': 2 } }]).matches(event)).toBe(false);
    expect(compileEventPatterns([{ timestamp: { '<=': 1_700_000_000 } }]).matches(event)).toBe(true);
    expect(compileEventPatterns([{ timestamp: { '<': 1_700_000_000 } }]).matches(event)).toBe(false);
  });

  it('read null as "the field is absent"', () => {
    expect(compileEventPatterns([{ perf_data: null, status: null }]).matches(event)).toBe(true);
    expect(compileEventPatterns([{ customer: null }]).matches(event)).toBe(false);
    expect(compileEventPatterns([{ nothing_here: null }]).matches(event)).toBe(true);
  });

  it('match custom fields as strings, numbers or lists of strings', () => {
    expect(compileEventPatterns([{ customer: 'acme' }]).matches(event)).toBe(true);
    expect(compileEventPatterns([{ weight: { '>': 5 } }]).matches(event)).toBe(true);
    expect(compileEventPatterns([{ tags: { has_every: ['prod', 'eu'] } }]).matches(event)).toBe(true);
    expect(compileEventPatterns([{ tags: { has_every: ['prod', 'us'] } }]).matches(event)).toBe(false);
    expect(compileEventPatterns([{ tags: { has_one_of: ['us', 'eu'] } }]).matches(event)).toBe(true);
    expect(compileEventPatterns([{ tags: { has_not: ['dev'] } }]).matches(event)).toBe(true);
    expect(compileEventPatterns([{ tags: { has_not: ['eu'] } }]).matches(event)).toBe(false);
    expect(compileEventPatterns([{ missing: 'x' }]).matches(event)).toBe(false);
  });

  it('match current_entity with an entity pattern, capturing under Entity', () => {
    const list = compileEventPatterns([{ current_entity: { infos: { site: { value: { regex_match: '(?P<city>p\\w+)' } } } } }]);
    expect(list.matches(event, entity)).toBe(true);
    expect(list.matches(event)).toBe(false);
    expect(list.match(event, entity)).toEqual({ Entity: { Infos: { site: { Value: { city: 'paris' } } } } });
  });

  it('refuse unknown operators, wrong operand types and unbounded regular expressions', () => {
    expect(compileError(() => compileEventPatterns([{ output: { contains: 'x' } }]))).toMatch(/event_patterns\[0\]\.output: unknown string operator "contains"/);
    expect(compileError(() => compileEventPatterns([{ state: { '>': 'x' } }]))).toMatch(/needs a number/);
    expect(compileError(() => compileEventPatterns([{ state: 'two' }]))).toMatch(/should be a number/);
    expect(compileError(() => compileEventPatterns([{ output: { regex_match: '(a+)+$' } }]))).toMatch(/not an accepted regular expression/);
    expect(compileError(() => compileEventPatterns([{ output: { regex_match: '(' } }]))).toMatch(/not an accepted regular expression/);
    expect(compileError(() => compileEventPatterns([{ tags: { has_every: ['a'], regex_match: 'a' } }]))).toMatch(/cannot be combined/);
    expect(compileError(() => compileEventPatterns([{ current_entity: { colour: 'red' } }]))).toMatch(/unknown entity field "colour"/);
  });
});

describe('entity patterns', () => {
  it('match ids, names, types, enabled and infos compared as strings', () => {
    expect(compileEntityPatterns([{ _id: 'cpu/web-01', type: 'resource', enabled: true }]).matches(entity)).toBe(true);
    expect(compileEntityPatterns([{ infos: { rack: { value: '12' } } }]).matches(entity)).toBe(true);
    expect(compileEntityPatterns([{ infos: { site: { name: 'site', description: { regex_match: 'wh' } } } }]).matches(entity)).toBe(true);
    expect(compileEntityPatterns([{ infos: { roles: { value: { has_one_of: ['db'] } } } }]).matches(entity)).toBe(true);
    expect(compileEntityPatterns([{ infos: { owner: null } }]).matches(entity)).toBe(true);
    expect(compileEntityPatterns([{ infos: { site: null } }]).matches(entity)).toBe(false);
    expect(compileEntityPatterns([{ infos: { owner: { value: 'x' } } }]).matches(entity)).toBe(false);
  });

  it('read a missing enabled as enabled', () => {
    expect(compileEntityPatterns([{ enabled: true }]).matches({ _id: 'x' })).toBe(true);
    expect(compileEntityPatterns([{ enabled: false }]).matches({ _id: 'x', enabled: false })).toBe(true);
  });

  it('refuse unknown fields and unknown info fields', () => {
    expect(compileError(() => compileEntityPatterns([{ impact: 'x' }]))).toMatch(/unknown entity field "impact"/);
    expect(compileError(() => compileEntityPatterns([{ infos: { site: { val: 'x' } } }]))).toMatch(/unknown info field "val"/);
  });
});

describe('alarm patterns', () => {
  const alarm = {
    _id: 'a1',
    t: 1_700_000_000,
    d: 'cpu/web-01',
    v: {
      state: { _t: 'stateinc', t: 1_700_000_000, a: 'nagios.nagios-1', m: 'load is 12', val: 3 },
      status: { _t: 'statusinc', t: 1_700_000_000, a: 'nagios.nagios-1', m: 'load is 12', val: 1 },
      ticket: { _t: 'assocticket', t: 1_700_000_100, a: 'bob', m: '', val: 'INC-42', data: { queue: 'ops' } },
      component: 'web-01',
      resource: 'cpu',
      output: 'load is 12',
      total_state_changes: 1,
      creation_date: 1_700_000_000,
      extra: { region: 'eu' },
    },
  };

  it('match the document fields and the value fields, steps included', () => {
    expect(compileAlarmPatterns([{ v: { state: { val: 3 } } }]).matches(alarm)).toBe(true);
    expect(compileAlarmPatterns([{ v: { state: { val: { '>=': 2 } }, status: { _t: 'statusinc' } } }]).matches(alarm)).toBe(true);
    expect(compileAlarmPatterns([{ v: { state: { val: 1 } } }]).matches(alarm)).toBe(false);
    expect(compileAlarmPatterns([{ d: { regex_match: '^cpu/' }, t: { '>': 1 } }]).matches(alarm)).toBe(true);
    expect(compileAlarmPatterns([{ v: { ticket: { val: 'INC-42', data: { queue: 'ops' } } } }]).matches(alarm)).toBe(true);
    expect(compileAlarmPatterns([{ v: { extra: { region: 'eu' }, total_state_changes: { '<': 2 } } }]).matches(alarm)).toBe(true);
  });

  it('read null steps and dates as absent (v.ack: null = not acknowledged, v.resolved: null = open)', () => {
    expect(compileAlarmPatterns([{ v: { ack: null, resolved: null } }]).matches(alarm)).toBe(true);
    expect(compileAlarmPatterns([{ v: { ticket: null } }]).matches(alarm)).toBe(false);
  });

  it('capture named groups under Value', () => {
    expect(compileAlarmPatterns([{ v: { output: { regex_match: 'load is (?P<load>\\d+)' } } }]).match(alarm)).toEqual({ Value: { Output: { load: '12' } } });
  });

  it('refuse unknown fields', () => {
    expect(compileError(() => compileAlarmPatterns([{ x: 1 }]))).toMatch(/unknown alarm field "x"/);
    expect(compileError(() => compileAlarmPatterns([{ v: { colour: 'red' } }]))).toMatch(/unknown alarm value field "colour"/);
    expect(compileError(() => compileAlarmPatterns([{ v: { state: { value: 3 } } }]))).toMatch(/alarm_patterns\[0\]\.v\.state: unknown step field "value"/);
  });
});
