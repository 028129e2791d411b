import { VigieError, ErrorCodes } from '../errors.js';
import type { Filter } from './port.js';

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

/**
 * Checks a filter a user sent: only the allowed operators, bounded size and depth, and regular expressions
 * that cannot backtrack catastrophically. Returns the filter unchanged when it is safe; throws an
 * `UNSAFE_FILTER` error that names the problem otherwise.
 */
export function assertSafeFilter(input: unknown, options: SafeFilterOptions = {}): Filter {
  const operators = new Set(options.operators ?? safeQueryOperators);
  const maxDepth = options.maxDepth ?? 10;
  const maxNodes = options.maxNodes ?? 2000;
  const maxRegexLength = options.maxRegexLength ?? 256;
  const maxListLength = options.maxListLength ?? 10000;
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw unsafe('the filter must be a JSON object');
  let nodes = 0;
  const visit = (value: unknown, depth: number): void => {
    nodes += 1;
    if (nodes > maxNodes) throw unsafe(`the filter has more than ${maxNodes} elements`);
    if (depth > maxDepth) throw unsafe(`the filter is nested deeper than ${maxDepth} levels`);
    if (typeof value !== 'object' || value === null) return;
    if (Array.isArray(value)) {
      if (value.length > maxListLength) throw unsafe(`a list in the filter has more than ${maxListLength} elements`);
      for (const item of value) visit(item, depth + 1);
      return;
    }
    const record = value as Record<string, unknown>;
    for (const [key, member] of Object.entries(record)) {
      if (key.startsWith('$')) {
        if (!operators.has(key)) throw unsafe(`operator ${key} is not allowed`);
        if (key === '$regex') {
          if (typeof member !== 'string') throw unsafe('$regex must be a string');
          assertSafeRegex(member, maxRegexLength);
        }
        if (key === '$options' && (typeof member !== 'string' || !/^[imsx]*$/.test(member))) {
          throw unsafe('$options may only hold the flags i, m, s and x');
        }
      }
      visit(member, depth + 1);
    }
  };
  visit(input, 0);
  return input as Filter;
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
