import { isJsonObject } from '@vigie/json';
import type { RegexCaptures } from './conditions.js';
import { compileAlarmPattern, type PatternAlarm } from './alarm.js';
import { compileEntityPattern, type PatternEntity } from './entity.js';
import { compileEventPattern, type PatternEvent } from './event.js';
import { eventPatternRequirement, type FieldRequirement } from './event-index.js';
import { PatternError } from './errors.js';

/**
 * A compiled pattern list: the patterns are OR'ed, the fields of one pattern AND'ed. Compile once per rule (or per
 * rule change), then call `matches` per subject. `Context` is what the subject is matched with (the event's entity
 * for `current_entity`); unused by entity and alarm patterns.
 */
export interface CompiledPatterns<Subject, Context = never> {
  /** True when the list was absent, null, `[]`, or holds an empty pattern: every subject matches. */
  readonly matchesEverything: boolean;
  /** Whether one of the patterns matches. */
  matches(subject: Subject, context?: Context): boolean;
  /**
   * The named groups the first matching pattern's `regex_match` expressions captured, by Go field name
   * (`{Output: {load: '12'}}`, read by templates as `.RegexMatch.Output.load`); null when nothing matches.
   */
  match(subject: Subject, context?: Context): RegexCaptures | null;
  /**
   * Event lists: one necessary condition per pattern (see `EventPatternIndex`); absent when a pattern has none or
   * the list matches everything.
   */
  readonly requirements?: readonly FieldRequirement[];
}

type Test<Subject, Context> = (subject: Subject, context: Context | undefined, captures: RegexCaptures | null) => boolean;
type Compile<Subject, Context> = (pattern: Record<string, unknown>, path: string) => Test<Subject, Context>;

/**
 * Normalises a stored list. Absent, null and `[]` match everything (Vigie follows the original's documentation,
 * not the 4.2.94 code that matched nothing on `[]`); a `{}` or `null` element is an empty pattern, which matches
 * everything too.
 */
function compileList<Subject, Context>(raw: unknown, path: string, compile: Compile<Subject, Context>): CompiledPatterns<Subject, Context> {
  if (raw === undefined || raw === null) return everything();
  if (!Array.isArray(raw)) throw new PatternError(path, 'should be a list of patterns or null');
  if (raw.length === 0) return everything();
  const tests: Test<Subject, Context>[] = [];
  for (const [index, pattern] of raw.entries()) {
    if (pattern === null || (isJsonObject(pattern) && Object.keys(pattern).length === 0)) return everything();
    if (!isJsonObject(pattern)) throw new PatternError(`${path}[${index}]`, 'should be a pattern object');
    tests.push(compile(pattern, `${path}[${index}]`));
  }
  return fromTests(tests);
}

function everything<Subject, Context>(): CompiledPatterns<Subject, Context> {
  return { matchesEverything: true, matches: () => true, match: () => ({}) };
}

function fromTests<Subject, Context>(tests: readonly Test<Subject, Context>[]): CompiledPatterns<Subject, Context> {
  return {
    matchesEverything: false,
    matches: (subject, context) => {
      for (const test of tests) if (test(subject, context, null)) return true;
      return false;
    },
    match: (subject, context) => {
      for (const test of tests) {
        const captures: RegexCaptures = {};
        if (test(subject, context, captures)) return captures;
      }
      return null;
    },
  };
}

/** Event patterns (`event_patterns`, the event filter's `patterns`); the entity feeds `current_entity`. */
export function compileEventPatterns(raw: unknown, path = 'event_patterns'): CompiledPatterns<PatternEvent, PatternEntity> {
  const compiled = compileList<PatternEvent, PatternEntity>(raw, path, compileEventPattern);
  return compiled.matchesEverything ? compiled : withRequirements(compiled, raw as Record<string, unknown>[]);
}

function withRequirements(compiled: CompiledPatterns<PatternEvent, PatternEntity>, patterns: readonly Record<string, unknown>[]): CompiledPatterns<PatternEvent, PatternEntity> {
  const requirements: FieldRequirement[] = [];
  for (const pattern of patterns) {
    const requirement = eventPatternRequirement(pattern);
    if (requirement === undefined) return compiled;
    requirements.push(requirement);
  }
  return { ...compiled, requirements };
}

/** One event pattern object (the event filter's `pattern`); absent, null or `{}` matches everything. */
export function compileSingleEventPattern(raw: unknown, path = 'pattern'): CompiledPatterns<PatternEvent, PatternEntity> {
  if (raw === undefined || raw === null) return everything();
  if (!isJsonObject(raw)) throw new PatternError(path, 'should be a pattern object');
  if (Object.keys(raw).length === 0) return everything();
  return withRequirements(fromTests([compileEventPattern(raw, path)]), [raw]);
}

/** Entity patterns (`entity_patterns`, watcher `entities`). */
export function compileEntityPatterns(raw: unknown, path = 'entity_patterns'): CompiledPatterns<PatternEntity | undefined> {
  return compileList<PatternEntity | undefined, never>(raw, path, (pattern, at) => {
    const test = compileEntityPattern(pattern, at);
    return (entity, _context, captures) => test(entity, captures);
  });
}

/** Alarm patterns (`alarm_patterns`). */
export function compileAlarmPatterns(raw: unknown, path = 'alarm_patterns'): CompiledPatterns<PatternAlarm | undefined> {
  return compileList<PatternAlarm | undefined, never>(raw, path, (pattern, at) => {
    const test = compileAlarmPattern(pattern, at);
    return (alarm, _context, captures) => test(alarm, captures);
  });
}
