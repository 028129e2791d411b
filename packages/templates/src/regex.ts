import { assertSafeRegex } from '@vigie/filter-safety';

/**
 * Regular expressions for `replace`. Patterns come from users and run on a backtracking engine, so they go through
 * the kernel's `assertSafeRegex`: short, no backreferences, no unbounded repetition of a group that itself repeats
 * or alternates.
 */

/** Go's inline flags at the start of a pattern (`(?i)`, `(?s)`, `(?m)`), which JavaScript spells as flags. */
const INLINE_FLAGS = /^\(\?([ims]+)\)/;

/** Compiles a user pattern for a global replace, or throws an `Error` saying why it is refused. */
export function compileSafeRegex(pattern: string): RegExp {
  const inline = INLINE_FLAGS.exec(pattern);
  const body = inline ? pattern.slice(inline[0].length) : pattern;
  assertSafeRegex(body);
  return new RegExp(body, `g${inline?.[1] ?? ''}`);
}

const GROUP_REFERENCE = /\{([\p{L}\p{Nd}_]+)\}|([\p{L}\p{Nd}_]+)/uy;

/**
 * Go's `Regexp.Expand`: `$1`, `${1}`, `$name` and `${name}` insert a group (the longest run of letters, digits and
 * underscores names it, so `$1x` is the group named `1x`), `$$` is a dollar, unknown or unmatched groups are empty.
 */
function expand(template: string, captures: readonly (string | undefined)[], named: Readonly<Record<string, string | undefined>> | undefined): string {
  let out = '';
  let index = 0;
  while (index < template.length) {
    const dollar = template.indexOf('$', index);
    if (dollar === -1) return out + template.slice(index);
    out += template.slice(index, dollar);
    index = dollar + 1;
    if (template[index] === '$') {
      out += '$';
      index += 1;
      continue;
    }
    GROUP_REFERENCE.lastIndex = index;
    const reference = GROUP_REFERENCE.exec(template);
    if (!reference) {
      out += '$';
      continue;
    }
    index = GROUP_REFERENCE.lastIndex;
    const name = (reference[1] ?? reference[2]) as string;
    // Go reads an all-digit name without a leading zero as a group number, anything else as a group name.
    const isNumber = /^(0|[1-9]\d{0,7})$/.test(name);
    const value = isNumber ? captures[Number(name)] : named && Object.hasOwn(named, name) ? named[name] : undefined;
    out += value ?? '';
  }
  return out;
}

/**
 * Go's `Regexp.ReplaceAllString`, including its rule that an empty match right after a previous match is not
 * replaced. The replacement text is bounded by `maxLength` characters as it is produced.
 */
export function replaceAll(pattern: string, replacement: string, input: string, maxLength: number): string {
  const regex = compileSafeRegex(pattern);
  let produced = 0;
  let lastMatchEnd = 0;
  return input.replace(regex, (...args: unknown[]) => {
    const last = args[args.length - 1];
    const named = typeof last === 'object' ? (last as Record<string, string | undefined>) : undefined;
    const captures = args.slice(0, args.length - (named ? 3 : 2)) as (string | undefined)[];
    const match = captures[0] as string;
    const offset = args[captures.length] as number;
    const abutsPreviousMatch = match === '' && offset === lastMatchEnd && offset !== 0;
    lastMatchEnd = offset + match.length;
    if (abutsPreviousMatch) return '';
    const piece = expand(replacement, captures, named);
    produced += piece.length;
    if (produced > maxLength) throw new Error(`result is longer than ${maxLength} characters`);
    return piece;
  });
}
