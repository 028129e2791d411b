/**
 * The part of Go's `fmt` that templates reach: how `{{.}}`, `print`, `println` and `printf` turn values into text.
 * JavaScript has one number type, so a number that is an integer prints like a Go `int` and any other number like
 * a `float64`.
 */
import { formatGoTime, GO_TIME_STRING_LAYOUT } from './time.js';
import { kindOf, sortedEntries, utf8Bytes } from './values.js';

/** Deeper values (or cyclic ones) are refused rather than overflowing the stack. */
const MAX_PRINT_DEPTH = 100;
/** printf padding and precision are bounded so that one verb cannot allocate an unbounded string. */
const MAX_WIDTH = 10_000;
const MAX_PRECISION = 100;

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
const NAMED_ESCAPES = new Map([
  ['\x07', '\\a'],
  ['\b', '\\b'],
  ['\f', '\\f'],
  ['\n', '\\n'],
  ['\r', '\\r'],
  ['\t', '\\t'],
  ['\v', '\\v'],
]);

const hex = (value: number, width: number): string => value.toString(16).padStart(width, '0');

function escapeRune(char: string, quote: string): string {
  if (char === quote || char === '\\') return `\\${char}`;
  if (PRINTABLE.test(char)) return char;
  const named = NAMED_ESCAPES.get(char);
  if (named !== undefined) return named;
  const code = char.codePointAt(0) as number;
  if (code < 0x80) return `\\x${hex(code, 2)}`;
  return code < 0x10000 ? `\\u${hex(code, 4)}` : `\\U${hex(code, 8)}`;
}

/** Go's `strconv.Quote`: a double-quoted string with Go escapes for anything not printable. */
export function quoteGo(text: string): string {
  let out = '"';
  for (const char of text) out += escapeRune(char, '"');
  return `${out}"`;
}

/** Go's `%#U`, used by the lexer: `U+003D '='`. */
export function describeRune(char: string): string {
  const code = `U+${(char.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}`;
  return PRINTABLE.test(char) ? `${code} '${char}'` : code;
}

/** Significant decimal digits (no trailing zeros) and exponent of a finite, non-negative number. */
function decimalDigits(value: number, precision?: number): { digits: string; exponent: number } {
  const [mantissa, exponent] = (precision === undefined ? value.toExponential() : value.toExponential(precision - 1)).split('e');
  const digits = (mantissa as string).replace('.', '').replace(/0+$/, '');
  return { digits: digits === '' ? '0' : digits, exponent: Number(exponent) };
}

function exponentSuffix(exponent: number, upper: boolean): string {
  return `${upper ? 'E' : 'e'}${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
}

/**
 * Go's `%g` for a finite, non-negative number: scientific notation when the exponent is below -4 or at least the
 * precision (6 when the precision is the shortest that round-trips), plain digits otherwise.
 */
function formatGeneral(value: number, precision: number | undefined, upper: boolean): string {
  // Go treats a precision of 0 as 1.
  const significant = precision === undefined ? undefined : Math.max(precision, 1);
  const { digits, exponent } = decimalDigits(value, significant);
  if (exponent < -4 || exponent >= (significant ?? 6)) {
    return `${digits[0]}${digits.length > 1 ? `.${digits.slice(1)}` : ''}${exponentSuffix(exponent, upper)}`;
  }
  const point = exponent + 1;
  if (point <= 0) return `0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return digits + '0'.repeat(point - digits.length);
  return `${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** A number as Go's `%v` prints it: integers in full, other numbers like a `float64`. */
function formatNumber(value: number): string {
  if (Number.isSafeInteger(value)) return String(value);
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? '+Inf' : '-Inf';
  return (value < 0 ? '-' : '') + formatGeneral(Math.abs(value), undefined, false);
}

/** Go's `%v` of one value, which is what an action prints. `undefined` (no value) prints `<no value>`. */
export function formatValue(value: unknown, depth = 0): string {
  if (depth > MAX_PRINT_DEPTH) throw new Error(`value nested more than ${MAX_PRINT_DEPTH} levels deep`);
  switch (kindOf(value)) {
    case 'none':
      return depth === 0 ? '<no value>' : '<nil>';
    case 'nil':
      return '<nil>';
    case 'string':
      return value as string;
    case 'number':
      return formatNumber(value as number);
    case 'bool':
      return String(value);
    case 'time':
      return formatGoTime(value as Date, GO_TIME_STRING_LAYOUT);
    case 'array':
      return `[${Array.from(value as unknown[], (item) => formatValue(item, depth + 1)).join(' ')}]`;
    case 'map':
      return `map[${sortedEntries(value as object)
        .map(([key, item]) => `${key}:${formatValue(item, depth + 1)}`)
        .join(' ')}]`;
    default:
      return `<${typeof value}>`;
  }
}

/** Go's `fmt.Sprint`: operands are concatenated, with a space between two operands when neither is a string. */
export function sprint(args: readonly unknown[]): string {
  let out = '';
  args.forEach((arg, i) => {
    if (i > 0 && typeof arg !== 'string' && typeof args[i - 1] !== 'string') out += ' ';
    out += formatValue(arg);
  });
  return out;
}

/** Go's `fmt.Sprintln`: operands separated by spaces, then a newline. */
export function sprintln(args: readonly unknown[]): string {
  return `${args.map((arg) => formatValue(arg)).join(' ')}\n`;
}

interface FormatSpec {
  minus: boolean;
  plus: boolean;
  sharp: boolean;
  space: boolean;
  zero: boolean;
  width: number | undefined;
  precision: number | undefined;
}

/** The Go type an argument plays, for `%!d(string=abc)` style messages. */
function goTypeName(value: unknown): string {
  switch (kindOf(value)) {
    case 'number':
      return Number.isSafeInteger(value) ? 'int' : 'float64';
    case 'array':
      return '[]interface {}';
    case 'map':
      return 'map[string]interface {}';
    case 'time':
      return 'time.Time';
    case 'other':
      return typeof value;
    default:
      return kindOf(value);
  }
}

function describeArgument(value: unknown): string {
  return value === null || value === undefined ? '<nil>' : `${goTypeName(value)}=${formatValue(value)}`;
}

function pad(text: string, spec: FormatSpec): string {
  const missing = (spec.width ?? 0) - Array.from(text).length;
  if (missing <= 0) return text;
  return spec.minus ? text + ' '.repeat(missing) : ' '.repeat(missing) + text;
}

/** Pads a number; with the `0` flag the zeros go between the sign (or base prefix) and the digits. */
function padNumber(prefix: string, digits: string, spec: FormatSpec, zeroAllowed: boolean): string {
  const missing = (spec.width ?? 0) - prefix.length - digits.length;
  if (missing > 0 && spec.zero && !spec.minus && zeroAllowed) return prefix + '0'.repeat(missing) + digits;
  return pad(prefix + digits, spec);
}

function signOf(negative: boolean, spec: FormatSpec): string {
  if (negative) return '-';
  if (spec.plus) return '+';
  return spec.space ? ' ' : '';
}

const BASE_PREFIXES: Readonly<Record<string, string>> = { b: '0b', o: '0', x: '0x', X: '0X' };
const BASES: Readonly<Record<string, number>> = { b: 2, o: 8, d: 10, v: 10, x: 16, X: 16 };

function formatInteger(value: number, verb: string, spec: FormatSpec): string {
  let digits = BigInt(Math.abs(value)).toString(BASES[verb] ?? 10);
  if (verb === 'X') digits = digits.toUpperCase();
  if (spec.precision !== undefined) digits = digits.padStart(spec.precision, '0');
  const prefix = signOf(value < 0, spec) + (spec.sharp ? (BASE_PREFIXES[verb] ?? '') : '');
  // Go ignores the 0 flag when a precision is given for an integer.
  return padNumber(prefix, digits, spec, spec.precision === undefined);
}

function formatFloat(value: number, verb: string, spec: FormatSpec): string {
  if (Number.isNaN(value)) return pad(signOf(false, spec) + 'NaN', spec);
  if (!Number.isFinite(value)) return pad(value > 0 ? '+Inf' : '-Inf', spec);
  const magnitude = Math.abs(value);
  const upper = verb === 'E' || verb === 'G';
  let digits: string;
  if (verb === 'f' || verb === 'F') digits = magnitude.toFixed(spec.precision ?? 6);
  else if (verb === 'e' || verb === 'E') {
    const [mantissa, exponent] = magnitude.toExponential(spec.precision ?? 6).split('e');
    digits = (mantissa as string) + exponentSuffix(Number(exponent), upper);
  } else digits = formatGeneral(magnitude, spec.precision, upper);
  return padNumber(signOf(value < 0 || Object.is(value, -0), spec), digits, spec, true);
}

function truncateRunes(text: string, precision: number | undefined): string {
  return precision === undefined ? text : Array.from(text).slice(0, precision).join('');
}

function formatArgument(arg: unknown, verb: string, spec: FormatSpec, depth: number): string {
  if (depth > MAX_PRINT_DEPTH) throw new Error(`value nested more than ${MAX_PRINT_DEPTH} levels deep`);
  const bad = (): string => `%!${verb}(${describeArgument(arg)})`;
  const kind = kindOf(arg);
  // Like Go, a verb applies to each element of a slice or map.
  if (kind === 'array') return `[${Array.from(arg as unknown[], (item) => formatArgument(item, verb, spec, depth + 1)).join(' ')}]`;
  if (kind === 'map') {
    return `map[${sortedEntries(arg as object)
      .map(([key, item]) => `${key}:${formatArgument(item, verb, spec, depth + 1)}`)
      .join(' ')}]`;
  }
  // A time.Time is a fmt.Stringer: the string verbs see its String().
  if (kind === 'time' && 'vsqxX'.includes(verb)) return formatArgument(formatGoTime(arg as Date, GO_TIME_STRING_LAYOUT), verb, spec, depth);
  const isInteger = kind === 'number' && Number.isInteger(arg);
  switch (verb) {
    case 'v':
      if (kind === 'number') return Number.isSafeInteger(arg) ? formatInteger(arg as number, 'd', spec) : formatFloat(arg as number, 'g', spec);
      return pad(formatValue(arg, depth + 1), spec);
    case 's':
      return kind === 'string' ? pad(truncateRunes(arg as string, spec.precision), spec) : bad();
    case 'q':
      if (kind === 'string') return pad(quoteGo(truncateRunes(arg as string, spec.precision)), spec);
      return isInteger ? pad(`'${escapeRune(runeOf(arg as number), "'")}'`, spec) : bad();
    case 'c':
      return isInteger ? pad(runeOf(arg as number), spec) : bad();
    case 'd':
    case 'b':
    case 'o':
      return isInteger ? formatInteger(arg as number, verb, spec) : bad();
    case 'x':
    case 'X':
      if (isInteger) return formatInteger(arg as number, verb, spec);
      if (kind !== 'string') return bad();
      return pad(
        Array.from(utf8Bytes(arg as string).slice(0, spec.precision), (byte) => (verb === 'x' ? hex(byte, 2) : hex(byte, 2).toUpperCase())).join(''),
        spec,
      );
    case 'e':
    case 'E':
    case 'f':
    case 'F':
    case 'g':
    case 'G':
      return kind === 'number' ? formatFloat(arg as number, verb, spec) : bad();
    case 't':
      return kind === 'bool' ? pad(String(arg), spec) : bad();
    default:
      return bad();
  }
}

function runeOf(code: number): string {
  return code >= 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : '\ufffd';
}

const DIGITS = /\d+/y;

/**
 * Go's `fmt.Sprintf` for flags `-+# 0`, a width, a precision and the verbs v s q d b o x X c e E f F g G t and %%.
 * Mistakes are reported in the output, as Go does: `%!d(string=abc)`, `%!s(MISSING)`, `%!(EXTRA int=1)`.
 */
export function sprintf(format: string, args: readonly unknown[]): string {
  let out = '';
  let next = 0;
  let i = 0;
  const readNumber = (): number | undefined => {
    DIGITS.lastIndex = i;
    const match = DIGITS.exec(format);
    if (!match) return undefined;
    i = DIGITS.lastIndex;
    return Number(match[0]);
  };
  while (i < format.length) {
    const percent = format.indexOf('%', i);
    if (percent === -1) {
      out += format.slice(i);
      break;
    }
    out += format.slice(i, percent);
    i = percent + 1;
    const spec: FormatSpec = { minus: false, plus: false, sharp: false, space: false, zero: false, width: undefined, precision: undefined };
    for (let flag = format[i]; flag !== undefined && '-+# 0'.includes(flag); flag = format[++i]) {
      if (flag === '-') spec.minus = true;
      else if (flag === '+') spec.plus = true;
      else if (flag === '#') spec.sharp = true;
      else if (flag === ' ') spec.space = true;
      else spec.zero = true;
    }
    spec.width = readNumber();
    if (format[i] === '.') {
      i += 1;
      spec.precision = readNumber() ?? 0;
    }
    if ((spec.width ?? 0) > MAX_WIDTH) throw new Error(`width ${spec.width} is larger than ${MAX_WIDTH}`);
    if ((spec.precision ?? 0) > MAX_PRECISION) throw new Error(`precision ${spec.precision} is larger than ${MAX_PRECISION}`);
    if (i >= format.length) {
      out += '%!(NOVERB)';
      break;
    }
    const verb = String.fromCodePoint(format.codePointAt(i) as number);
    i += verb.length;
    if (verb === '%') out += '%';
    else if (next >= args.length) out += `%!${verb}(MISSING)`;
    else out += formatArgument(args[next++], verb, spec, 0);
  }
  if (next < args.length) out += `%!(EXTRA ${args.slice(next).map(describeArgument).join(', ')})`;
  return out;
}
