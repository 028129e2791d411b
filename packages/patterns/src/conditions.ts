import { patternRegExp, regexProblem } from '@vigie/rule-schemas';
import { isJsonObject } from '@vigie/json';
import { PatternError } from './errors.js';

/**
 * Named groups captured by `regex_match`, nested by Go field name as the original's templates read them
 * (`RegexMatch.Output.load`, `RegexMatch.ExtraInfos.site.code`, `RegexMatch.Entity.Infos.site.Value.x`).
 */
export type RegexCaptures = { [field: string]: RegexCaptures | string };

/**
 * One compiled condition: does `value` satisfy it? When `captures` is given, named groups of the regular
 * expressions it ran are written into it.
 */
export type Condition = (value: unknown, captures: RegexCaptures | null) => boolean;

export const isAbsent: Condition = (value) => value === undefined || value === null;

const matchAll: Condition = () => true;

function allOf(conditions: readonly Condition[]): Condition {
  if (conditions.length === 0) return matchAll;
  if (conditions.length === 1) return conditions[0]!;
  return (value, captures) => {
    for (const condition of conditions) if (!condition(value, captures)) return false;
    return true;
  };
}

/** The sub-record of `captures` at `field`, created when missing. */
export function capturesAt(captures: RegexCaptures, field: string): RegexCaptures {
  const existing = captures[field];
  if (typeof existing === 'object') return existing;
  const created: RegexCaptures = {};
  captures[field] = created;
  return created;
}

/**
 * A `regex_match` over a string: an unanchored search in the original's Go spelling, bounded by
 * `patternRegExp` (@vigie/rule-schemas). Named groups go to `captures[captureField]`.
 */
function regexCondition(expression: unknown, path: string, captureField: string | undefined, text: (value: unknown) => string | null): Condition {
  if (typeof expression !== 'string') throw new PatternError(path, 'regex_match should be a string');
  const problem = regexProblem(expression);
  if (problem !== null) throw new PatternError(path, `regex_match is not an accepted regular expression: ${problem}`);
  const regex = patternRegExp(expression);
  // `(?<name>` after translation; a lookbehind is `(?<=` or `(?<!`, not a group name.
  const capturing = captureField !== undefined && /\(\?<[A-Za-z_]/.test(regex.source);
  if (!capturing) {
    return (value) => {
      const subject = text(value);
      return subject !== null && regex.test(subject);
    };
  }
  return (value, captures) => {
    const subject = text(value);
    if (subject === null) return false;
    const found = regex.exec(subject);
    if (found === null) return false;
    if (captures !== null && found.groups) {
      const groups: RegexCaptures = {};
      // `groups` has no prototype: `in` lists its own keys, in order, without the entries' arrays.
      for (const name in found.groups) groups[name] = found.groups[name] ?? '';
      captures[captureField] = groups;
    }
    return true;
  };
}

/** A typed string field: absent reads as "" (the Go zero value), a non-string never matches. */
const typedString = (value: unknown): string | null => (value === undefined || value === null ? '' : typeof value === 'string' ? value : null);

/** A custom field or info value: only a real string is a string. */
const strictString = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** An entity info value, compared through its string form (REFERENCE §5.1). */
const infoString = (value: unknown): string | null => {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
};

/** How a string condition reads the field it tests. */
export type StringReading = 'typed' | 'strict' | 'info';

const readings: Record<StringReading, (value: unknown) => string | null> = { typed: typedString, strict: strictString, info: infoString };

const integerOperators = ['>', '>=', '<', '<='] as const;
const stringArrayOperators = ['has_every', 'has_one_of', 'has_not'] as const;

function integerOperand(operand: unknown, path: string, op: string): number {
  if (typeof operand !== 'number' || !Number.isFinite(operand)) throw new PatternError(path, `${op} needs a number`);
  return operand;
}

function comparison(op: string, bound: number): Condition {
  switch (op) {
    case '>':
      return (value) => typeof value === 'number' && value > bound;
    case '>=':
      return (value) => typeof value === 'number' && value >= bound;
    case '<':
      return (value) => typeof value === 'number' && value < bound;
    default:
      return (value) => typeof value === 'number' && value <= bound;
  }
}

function stringArrayOperand(operand: unknown, path: string, op: string): readonly string[] {
  if (!Array.isArray(operand) || !operand.every((item) => typeof item === 'string')) {
    throw new PatternError(path, `${op} needs a list of strings`);
  }
  return operand as string[];
}

function membership(op: string, wanted: readonly string[]): Condition {
  const asArray = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : []);
  switch (op) {
    case 'has_every':
      return (value) => {
        const have = asArray(value);
        return wanted.every((item) => have.includes(item));
      };
    case 'has_one_of':
      return (value) => {
        const have = asArray(value);
        return wanted.some((item) => have.includes(item));
      };
    default:
      return (value) => {
        const have = asArray(value);
        return !wanted.some((item) => have.includes(item));
      };
  }
}

/** A string field: a literal (equality), `null` (absent), or `{regex_match}`. */
export function stringCondition(raw: unknown, path: string, captureField?: string, reading: StringReading = 'typed'): Condition {
  const read = readings[reading];
  if (raw === null) return isAbsent;
  if (typeof raw === 'string') return (value) => read(value) === raw;
  if (!isJsonObject(raw)) throw new PatternError(path, 'should be a string, null or an object of string operators');
  const conditions: Condition[] = [];
  for (const [op, operand] of Object.entries(raw)) {
    if (op !== 'regex_match') throw new PatternError(path, `unknown string operator "${op}"`);
    conditions.push(regexCondition(operand, `${path}.${op}`, captureField, read));
  }
  return allOf(conditions);
}

/**
 * An integer or time field (times as epoch seconds): a literal number (equality), `null` (absent), or an object of
 * `>`, `>=`, `<`, `<=`, all required.
 */
export function integerCondition(raw: unknown, path: string): Condition {
  if (raw === null) return isAbsent;
  if (typeof raw === 'number') return (value) => value === raw;
  if (!isJsonObject(raw)) throw new PatternError(path, 'should be a number, null or an object of comparison operators');
  const conditions: Condition[] = [];
  for (const [op, operand] of Object.entries(raw)) {
    if (!(integerOperators as readonly string[]).includes(op)) throw new PatternError(path, `unknown comparison operator "${op}"`);
    conditions.push(comparison(op, integerOperand(operand, `${path}.${op}`, op)));
  }
  return allOf(conditions);
}

/** A boolean field: a literal or `null` (absent). An absent field reads as `whenAbsent` for a literal. */
export function booleanCondition(raw: unknown, path: string, whenAbsent = false): Condition {
  if (raw === null) return isAbsent;
  if (typeof raw === 'boolean') return (value) => (value === undefined || value === null ? whenAbsent : value) === raw;
  throw new PatternError(path, 'should be a boolean or null');
}

/**
 * A field whose type the grammar does not know (custom event fields, alarm `extra`, info values): a literal
 * string/number/boolean (equality), `null` (absent), or an object of operators of one kind — `regex_match` for a
 * string, comparisons for a number, `has_every`/`has_one_of`/`has_not` for a list of strings.
 */
export function anyCondition(raw: unknown, path: string, captureField?: string, reading: StringReading = 'strict'): Condition {
  if (raw === null) return isAbsent;
  if (typeof raw === 'string') {
    const read = readings[reading];
    return (value) => read(value) === raw;
  }
  if (typeof raw === 'number' || typeof raw === 'boolean') return (value) => value === raw;
  if (!isJsonObject(raw)) throw new PatternError(path, 'should be a string, a number, a boolean, null or an object of operators');
  const ops = Object.keys(raw);
  if (ops.length === 0) return matchAll;
  const kinds = new Set(
    ops.map((op) => {
      if (op === 'regex_match') return 'string';
      if ((integerOperators as readonly string[]).includes(op)) return 'integer';
      if ((stringArrayOperators as readonly string[]).includes(op)) return 'array';
      throw new PatternError(path, `unknown operator "${op}"`);
    }),
  );
  if (kinds.size > 1) throw new PatternError(path, 'operators of different kinds (string, number, list) cannot be combined');
  const kind = [...kinds][0];
  if (kind === 'string') return stringCondition(raw, path, captureField, reading);
  if (kind === 'integer') return integerCondition(raw, path);
  return stringArrayCondition(raw, path);
}

/** A list-of-strings field: `null` (absent) or an object of `has_every`, `has_one_of`, `has_not`, all required. */
export function stringArrayCondition(raw: unknown, path: string): Condition {
  if (raw === null) return isAbsent;
  if (!isJsonObject(raw)) throw new PatternError(path, 'should be null or an object of list operators');
  const conditions: Condition[] = [];
  for (const [op, operand] of Object.entries(raw)) {
    if (!(stringArrayOperators as readonly string[]).includes(op)) throw new PatternError(path, `unknown list operator "${op}"`);
    conditions.push(membership(op, stringArrayOperand(operand, `${path}.${op}`, op)));
  }
  return allOf(conditions);
}

/** Every condition of a pattern object, AND'ed, reading each field with `read`. */
export interface FieldTest<S> {
  read: (subject: S) => unknown;
  condition: Condition;
}

export function allFields<S>(tests: readonly FieldTest<S>[]): (subject: S, captures: RegexCaptures | null) => boolean {
  return (subject, captures) => {
    for (const test of tests) if (!test.condition(test.read(subject), captures)) return false;
    return true;
  };
}

/** `condition` applied to a nested record whose captures go under `captures[field]`. */
export function nestedCaptures(condition: Condition, field: string): Condition {
  return (value, captures) => condition(value, captures === null ? null : capturesAt(captures, field));
}
