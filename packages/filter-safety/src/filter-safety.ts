import { HttpError, VigieError, ErrorCodes, type Filter } from '@vigie/kernel';

/** Operators that execute JavaScript or aggregation expressions; no adapter ever accepts them. */
export const codeExecutingOperators = ['$where', '$function', '$accumulator', '$expr'] as const;

/** Operators users may put in the filters they send (weather, pbehavior, alarm-filter, entity lists). */
export const safeQueryOperators = [
  '$and',
  '$or',
  '$nor',
  '$not',
  '$eq',
  '$ne',
  '$gt',
  '$gte',
  '$lt',
  '$lte',
  '$in',
  '$nin',
  '$exists',
  '$regex',
  '$options',
  '$all',
  '$elemMatch',
  '$size',
] as const;

export interface SafeFilterOptions {
  /** Operators allowed; `safeQueryOperators` by default. */
  operators?: readonly string[];
  /** Maximum nesting of objects/arrays (default 10). */
  maxDepth?: number;
  /** Maximum number of nodes in the filter (default 2000). */
  maxNodes?: number;
  /** Maximum length of one regular expression (default 256). */
  maxRegexLength?: number;
  /** Maximum number of elements in one `$in`/`$nin`/`$all` list (default 10000). */
  maxListLength?: number;
}

function unsafe(message: string): VigieError {
  return new VigieError(ErrorCodes.UnsafeFilter, message);
}

/** Refuses filters that would run code inside the store. Every adapter calls this on every filter (any depth). */
export function assertNoCodeExecution(filter: unknown): void {
  // Iterative: filters built by code are not depth-bounded like those users send.
  const pending: unknown[] = [filter];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) pending.push(item);
      continue;
    }
    for (const [key, member] of Object.entries(value)) {
      if ((codeExecutingOperators as readonly string[]).includes(key)) throw unsafe(`operator ${key} is not allowed`);
      pending.push(member);
    }
  }
}

/** Segments that would reach an object's prototype rather than a stored field. */
const prototypeSegments: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Whether a dotted field path has a segment reaching an object's prototype. */
function reachesPrototype(path: string): boolean {
  return path.split('.').some((segment) => prototypeSegments.has(segment));
}

/**
 * Whether a dotted field path a user sent (a sort key, a filter's field) names plain fields: non-empty segments,
 * no `$` (no operator can slip in), none reaching an object's prototype.
 */
export function isSafeFieldPath(path: string): boolean {
  return !reachesPrototype(path) && path.split('.').every((segment) => segment !== '' && !segment.includes('$'));
}

/** Operators that combine whole filters: the only operators allowed at the top level of a filter. */
const logicalOperators: ReadonlySet<string> = new Set(['$and', '$or', '$nor']);
/** Operators whose value must be a list. */
const listOperators: ReadonlySet<string> = new Set(['$in', '$nin', '$all']);

/**
 * Checks a filter a user sent, before any store sees it: only the allowed operators, each where the query grammar
 * puts it (`$and`/`$or`/`$nor` at the top level, with a non-empty list of filters; comparison operators inside a
 * field's condition, never at the top level, never mixed with plain keys), values of the right kind (`$in` a list,
 * `$size` a count, `$exists` a boolean…), bounded size and depth, and regular expressions that cannot backtrack
 * catastrophically. Returns the filter unchanged when it is safe; throws an `UNSAFE_FILTER` error that names the
 * problem otherwise. Every route that takes a user filter calls it (weather, pbehaviors, alarm filters, entities).
 */
export function assertSafeFilter(input: unknown, options: SafeFilterOptions = {}): Filter {
  const operators = new Set(options.operators ?? safeQueryOperators);
  const maxDepth = options.maxDepth ?? 10;
  const maxNodes = options.maxNodes ?? 2000;
  const maxRegexLength = options.maxRegexLength ?? 256;
  const maxListLength = options.maxListLength ?? 10000;
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw unsafe('the filter must be a JSON object');
  let nodes = 0;
  const enter = (depth: number): void => {
    nodes += 1;
    if (nodes > maxNodes) throw unsafe(`the filter has more than ${maxNodes} elements`);
    if (depth > maxDepth) throw unsafe(`the filter is nested deeper than ${maxDepth} levels`);
  };
  const allowed = (key: string): void => {
    if (!operators.has(key)) throw unsafe(`operator ${key} is not allowed`);
  };
  const list = (value: unknown, what: string): unknown[] => {
    if (!Array.isArray(value)) throw unsafe(`${what} needs a list`);
    if (value.length > maxListLength) throw unsafe(`a list in the filter has more than ${maxListLength} elements`);
    return value;
  };
  /** A value compared as is: no operator may hide inside it. */
  const literal = (value: unknown, depth: number): void => {
    enter(depth);
    if (typeof value !== 'object' || value === null) return;
    if (Array.isArray(value)) {
      list(value, 'a value');
      for (const item of value) literal(item, depth + 1);
      return;
    }
    for (const [key, member] of Object.entries(value)) {
      if (key.startsWith('$')) {
        allowed(key);
        throw unsafe(`operator ${key} is not allowed inside a value`);
      }
      literal(member, depth + 1);
    }
  };
  /** A whole filter: field conditions and logical operators. */
  const expression = (value: unknown, depth: number, where: string): void => {
    enter(depth);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw unsafe(`${where} must be an object`);
    for (const [key, member] of Object.entries(value)) {
      if (key.startsWith('$')) {
        allowed(key);
        if (!logicalOperators.has(key)) throw unsafe(`unknown top level operator ${key}: only $and, $or and $nor combine filters; compare fields as {"field": {"${key}": …}}`);
        const items = list(member, key);
        if (items.length === 0) throw unsafe(`${key} needs a non-empty list of filters`);
        for (const item of items) expression(item, depth + 1, `each element of ${key}`);
      } else {
        if (reachesPrototype(key)) throw unsafe(`field ${key} is not allowed: it names an object's prototype`);
        condition(member, depth + 1);
      }
    }
  };
  /** What a field is compared with: a plain value, or an object of operators. */
  const condition = (value: unknown, depth: number): void => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return literal(value, depth);
    const keys = Object.keys(value);
    const operatorKeys = keys.filter((key) => key.startsWith('$'));
    if (operatorKeys.length === 0) return literal(value, depth);
    enter(depth);
    if (operatorKeys.length !== keys.length) throw unsafe(`a condition cannot mix operators (${operatorKeys.join(', ')}) with plain keys`);
    const record = value as Record<string, unknown>;
    for (const [key, member] of Object.entries(record)) {
      allowed(key);
      if (logicalOperators.has(key)) throw unsafe(`${key} combines filters and cannot be used inside a field condition`);
      if (listOperators.has(key)) {
        for (const item of list(member, key)) literal(item, depth + 1);
      } else if (key === '$regex') {
        if (typeof member !== 'string') throw unsafe('$regex must be a string');
        assertSafeRegex(member, maxRegexLength);
      } else if (key === '$options') {
        if (typeof member !== 'string' || !/^[imsx]*$/.test(member)) throw unsafe('$options may only hold the flags i, m, s and x');
        if (!('$regex' in record)) throw unsafe('$options needs a $regex beside it');
      } else if (key === '$exists') {
        if (typeof member !== 'boolean' && member !== 0 && member !== 1) throw unsafe('$exists needs true or false');
      } else if (key === '$size') {
        if (!Number.isInteger(member) || (member as number) < 0) throw unsafe('$size needs a non-negative integer');
      } else if (key === '$not') {
        if (typeof member !== 'object' || member === null || Array.isArray(member) || Object.keys(member).length === 0 || !Object.keys(member).every((k) => k.startsWith('$'))) {
          throw unsafe('$not needs an object of operators');
        }
        condition(member, depth + 1);
      } else if (key === '$elemMatch') {
        if (typeof member !== 'object' || member === null || Array.isArray(member)) throw unsafe('$elemMatch needs an object');
        if (Object.keys(member).every((k) => k.startsWith('$'))) condition(member, depth + 1);
        else expression(member, depth + 1, '$elemMatch');
      } else {
        literal(member, depth + 1);
      }
    }
  };
  expression(input, 0, 'the filter');
  return input as Filter;
}

/**
 * A user filter as a route receives it, JSON text (a query parameter) or an object (a body), checked by
 * `assertSafeFilter`; null when absent or blank. Text that is not JSON, or JSON that is not an object, is a 400 that
 * says so.
 */
export function parseSafeFilter(value: string | Record<string, unknown> | undefined): Filter | null {
  if (value === undefined) return null;
  let parsed: unknown = value;
  if (typeof value === 'string') {
    if (value.trim() === '') return null;
    try {
      parsed = JSON.parse(value);
    } catch (err) {
      throw new HttpError(400, `Invalid filter: not valid JSON (${(err as Error).message})`);
    }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new HttpError(400, 'Invalid filter: it must be a JSON object');
  return assertSafeFilter(parsed);
}

/**
 * Accepts a regular expression only if it is short and free of the shapes that make a backtracking engine
 * exponential: a quantified group that itself contains a quantifier or an alternation (`(a+)+`, `(a|a)*`),
 * and backreferences. A group made optional with `?` is bounded and stays allowed.
 */
export function assertSafeRegex(source: string, maxLength = 256): void {
  if (source.length > maxLength) throw unsafe(`regular expression longer than ${maxLength} characters`);
  try {
    new RegExp(source);
  } catch (err) {
    // V8 repeats the pattern in its message ("Invalid regular expression: /(/: Unterminated group"): keep the reason.
    throw unsafe(`invalid regular expression: ${(err as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '')}`);
  }
  interface Group {
    risky: boolean;
  }
  const stack: Group[] = [{ risky: false }];
  let lastClosedGroupRisky: boolean | null = null;
  let i = 0;
  const markQuantifier = (): void => {
    for (const g of stack) g.risky = true;
  };
  while (i < source.length) {
    const ch = source[i] as string;
    if (ch === '\\') {
      const next = source[i + 1] ?? '';
      if (/[1-9]/.test(next) || (next === 'k' && source[i + 2] === '<')) throw unsafe('backreferences are not allowed in regular expressions');
      i += 2;
      lastClosedGroupRisky = null;
      continue;
    }
    if (ch === '[') {
      i += 1;
      while (i < source.length && source[i] !== ']') i += source[i] === '\\' ? 2 : 1;
      i += 1;
      lastClosedGroupRisky = null;
      continue;
    }
    if (ch === '(') {
      stack.push({ risky: false });
      i += 1;
      if (source[i] === '?') {
        // Skip the group's marker: (?: (?= (?! (?<= (?<! (?<name>
        i += 1;
        if (source[i] === '<' && source[i + 1] !== '=' && source[i + 1] !== '!') {
          while (i < source.length && source[i] !== '>') i += 1;
        }
        i += 1;
      }
      lastClosedGroupRisky = null;
      continue;
    }
    if (ch === ')') {
      const group = stack.pop() ?? { risky: false };
      if (stack.length === 0) stack.push({ risky: false });
      lastClosedGroupRisky = group.risky;
      i += 1;
      continue;
    }
    if (ch === '|') {
      markCurrent(stack);
      i += 1;
      lastClosedGroupRisky = null;
      continue;
    }
    if (ch === '*' || ch === '+' || ch === '{' || ch === '?') {
      let unbounded = ch === '*' || ch === '+';
      if (ch === '{') {
        const m = /^\{(\d*)(,?)(\d*)\}/.exec(source.slice(i));
        if (!m) {
          i += 1;
          continue;
        }
        unbounded = m[2] === ',' && (m[3] === '' || Number(m[3]) > 1) ? true : Number(m[1]) > 1;
        i += m[0].length;
      } else {
        i += 1;
      }
      if (source[i] === '?' || source[i] === '+') i += 1; // lazy or possessive marker
      if (unbounded && lastClosedGroupRisky === true) {
        throw unsafe('nested quantifiers (such as (a+)+ or (a|b)*) are not allowed in regular expressions');
      }
      if (unbounded) markQuantifier();
      lastClosedGroupRisky = null;
      continue;
    }
    i += 1;
    lastClosedGroupRisky = null;
  }
}

function markCurrent(stack: { risky: boolean }[]): void {
  const top = stack[stack.length - 1];
  if (top) top.risky = true;
}
