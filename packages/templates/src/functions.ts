import { sprint, sprintf, sprintln } from './format.js';
import { compileSafeRegex, replaceAll } from './regex.js';
import { formatGoTime, RFC3339_NANO_LAYOUT } from './time.js';
import { isTruthy, kindOf, lookupKey, typeName, utf8Bytes, utf8Length } from './values.js';

/** A function callers add with `compile(source, { functions })`; it receives the evaluated arguments. */
export type TemplateFunction = (...args: never[]) => unknown;

export interface FunctionEntry {
  readonly minArgs: number;
  readonly maxArgs: number;
  /**
   * `and` and `or` evaluate their arguments one at a time and return the first falsy (`and`) or truthy (`or`)
   * one without evaluating the rest; `call` only sees the arguments when none decided, and receives them as is.
   */
  readonly shortCircuit?: 'and' | 'or';
  /** Arguments arrive with "no value" turned into `null`, as Go turns an invalid value into a nil interface. */
  readonly call: (args: unknown[]) => unknown;
  /** Checks the literal arguments at parse time (`undefined` where an argument is not a literal); throws if wrong. */
  readonly checkLiterals?: (literals: readonly unknown[]) => void;
}

export type FunctionTable = ReadonlyMap<string, FunctionEntry>;

const fixed = (count: number, call: (args: unknown[]) => unknown): FunctionEntry => ({ minArgs: count, maxArgs: count, call });
const variadic = (minArgs: number, call: (args: unknown[]) => unknown): FunctionEntry => ({ minArgs, maxArgs: Infinity, call });

function expectString(value: unknown): string {
  if (typeof value !== 'string') throw new Error(`wrong type for value; expected string; got ${typeName(value)}`);
  return value;
}

function expectInteger(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new Error(`wrong type for value; expected int; got ${typeName(value)}`);
  return value;
}

/** Go's `eq` on two values: basic values compare by value, nil only equals nil, dates by instant. */
function equal(a: unknown, b: unknown): boolean {
  const kindA = kindOf(a);
  const kindB = kindOf(b);
  if (kindA !== kindB) {
    if (kindA === 'nil' || kindB === 'nil') return false;
    throw new Error('incompatible types for comparison');
  }
  switch (kindA) {
    case 'nil':
      return true;
    case 'string':
    case 'number':
    case 'bool':
      return a === b;
    case 'time':
      return (a as Date).getTime() === (b as Date).getTime();
    default:
      throw new Error(`non-comparable type ${typeName(a)}`);
  }
}

/** Go's `lt`: numbers with numbers and strings with strings; anything else is an error. */
function less(a: unknown, b: unknown): boolean {
  const kindA = kindOf(a);
  const kindB = kindOf(b);
  const isBasic = (kind: string): boolean => kind === 'number' || kind === 'string' || kind === 'bool';
  if (!isBasic(kindA) || !isBasic(kindB)) throw new Error('invalid type for comparison');
  if (kindA !== kindB) throw new Error('incompatible types for comparison');
  if (kindA === 'bool') throw new Error('invalid type for comparison');
  return (a as number | string) < (b as number | string);
}

function length(value: unknown): number {
  switch (kindOf(value)) {
    case 'string':
      return utf8Length(value as string);
    case 'array':
      return (value as unknown[]).length;
    case 'map':
      return Object.keys(value as object).length;
    case 'nil':
      throw new Error('len of nil pointer');
    default:
      throw new Error(`len of type ${typeName(value)}`);
  }
}

function indexOne(item: unknown, key: unknown): unknown {
  const position = (size: number): number => {
    if (typeof key !== 'number' || !Number.isInteger(key)) throw new Error(`cannot index slice/array with type ${typeName(key)}`);
    if (key < 0 || key >= size) throw new Error(`index out of range: ${key}`);
    return key;
  };
  switch (kindOf(item)) {
    case 'array':
      return (item as unknown[])[position((item as unknown[]).length)];
    case 'string': {
      const bytes = utf8Bytes(item as string);
      return bytes[position(bytes.length)];
    }
    case 'map':
      if (typeof key !== 'string') throw new Error(`value has type ${typeName(key)}; should be string`);
      return lookupKey(item as object, key);
    case 'nil':
    case 'none':
      throw new Error('index of untyped nil');
    default:
      throw new Error(`can't index item of type ${typeName(item)}`);
  }
}

/** Go's `url.QueryEscape`: unreserved characters stay, spaces become `+`, every other byte is %XX. */
function queryEscape(text: string): string {
  let out = '';
  for (const byte of utf8Bytes(text)) {
    const char = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-_.~]/.test(char)) out += char;
    else if (char === ' ') out += '+';
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Go's template `evalArgs`: one string argument is used as is, anything else goes through `fmt.Sprint`. */
function argumentsText(args: readonly unknown[]): string {
  return args.length === 1 && typeof args[0] === 'string' ? args[0] : sprint(args);
}

/** JSON text of a value; dates are written as RFC 3339 like Go's `encoding/json`, no value as `null`. */
function toJson(value: unknown): string {
  const text = JSON.stringify(value ?? null, function (this: unknown, key: string, encoded: unknown) {
    const original = (this as Record<string, unknown>)[key];
    return original instanceof Date ? formatGoTime(original, RFC3339_NANO_LAYOUT) : encoded;
  }) as string | undefined;
  // Functions and symbols have no JSON form.
  return text ?? 'null';
}

function toDate(value: unknown): Date {
  if (value instanceof Date) return value;
  if (typeof value === 'number' && Number.isFinite(value)) return new Date(value * 1000);
  throw new Error(`expected a date or epoch seconds; got ${typeName(value)}`);
}

/**
 * The built-in functions: Go's (`and`, `or`, `not`, `len`, `index`, `print`, `printf`, `println`, `urlquery`,
 * `eq`, `ne`, `lt`, `le`, `gt`, `ge`) and Vigie's (`json`, `json_unquote`, `split`, `trim`, `replace`,
 * `lowercase`, `uppercase`, `formattedDate`). `maxStringLength` bounds what `replace` may build.
 */
export function builtinFunctions(maxStringLength: number): Map<string, FunctionEntry> {
  return new Map<string, FunctionEntry>([
    ['and', { ...variadic(1, (args) => args.at(-1)), shortCircuit: 'and' }],
    ['or', { ...variadic(1, (args) => args.at(-1)), shortCircuit: 'or' }],
    ['not', fixed(1, ([value]) => !isTruthy(value))],
    ['len', fixed(1, ([value]) => length(value))],
    ['index', variadic(1, ([item, ...keys]) => keys.reduce(indexOne, item))],
    ['print', variadic(0, sprint)],
    ['printf', variadic(1, ([format, ...args]) => sprintf(expectString(format), args))],
    ['println', variadic(0, sprintln)],
    ['urlquery', variadic(0, (args) => queryEscape(argumentsText(args)))],
    [
      'eq',
      variadic(1, ([first, ...others]) => {
        if (others.length === 0) throw new Error('missing argument for comparison');
        return others.some((other) => equal(first, other));
      }),
    ],
    ['ne', fixed(2, ([a, b]) => !equal(a, b))],
    ['lt', fixed(2, ([a, b]) => less(a, b))],
    ['le', fixed(2, ([a, b]) => less(a, b) || equal(a, b))],
    ['gt', fixed(2, ([a, b]) => !(less(a, b) || equal(a, b)))],
    ['ge', fixed(2, ([a, b]) => !less(a, b))],
    ['json', fixed(1, ([value]) => toJson(value))],
    [
      'json_unquote',
      fixed(1, ([value]) => {
        const text = toJson(value);
        return text.length >= 2 && text.startsWith('"') && text.endsWith('"') ? text.slice(1, -1) : text;
      }),
    ],
    [
      'split',
      fixed(3, ([separator, index, text]) => {
        const sep = expectString(separator);
        const position = expectInteger(index);
        const value = expectString(text);
        // Go's strings.Split with an empty separator splits into characters.
        const parts = sep === '' ? Array.from(value) : value.split(sep);
        return parts[position] ?? '';
      }),
    ],
    ['trim', fixed(1, ([text]) => expectString(text).trim())],
    [
      'replace',
      {
        ...fixed(3, ([pattern, replacement, text]) => replaceAll(expectString(pattern), expectString(replacement), expectString(text), maxStringLength)),
        checkLiterals: ([pattern]) => {
          if (typeof pattern === 'string') compileSafeRegex(pattern);
        },
      },
    ],
    ['lowercase', fixed(1, ([text]) => expectString(text).toLowerCase())],
    ['uppercase', fixed(1, ([text]) => expectString(text).toUpperCase())],
    ['formattedDate', fixed(2, ([layout, value]) => formatGoTime(toDate(value), expectString(layout)))],
  ]);
}

/** Wraps a caller's function; it accepts any number of arguments, as JavaScript functions do. */
export function customFunction(fn: TemplateFunction): FunctionEntry {
  return variadic(0, (args) => (fn as (...args: unknown[]) => unknown)(...args));
}
