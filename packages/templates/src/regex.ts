/**
 * Regular expressions for `replace`. Patterns come from users and run on a backtracking engine, so they are
 * bounded the same way as the kernel's `assertSafeRegex` (kept local so that this package has no runtime
 * dependency): short, no backreferences, and no unbounded repetition of a group that itself repeats or alternates.
 */

const MAX_REGEX_LENGTH = 256;

/** Go's inline flags at the start of a pattern (`(?i)`, `(?s)`, `(?m)`), which JavaScript spells as flags. */
const INLINE_FLAGS = /^\(\?([ims]+)\)/;

/** How far a quantifier at `index` repeats, and its length (including a lazy `?`); undefined if there is none. */
function quantifierAt(source: string, index: number): { repeats: boolean; length: number } | undefined {
  const char = source[index];
  let repeats: boolean;
  let length: number;
  if (char === '*' || char === '+' || char === '?') {
    repeats = char !== '?';
    length = 1;
  } else if (char === '{') {
    // Outside the `u` flag, a brace that does not form a valid {n}, {n,} or {n,m} is a literal.
    const range = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(index));
    if (!range) return undefined;
    const max = range[2] === undefined ? Number(range[1]) : range[3] === '' ? Infinity : Number(range[3]);
    repeats = max > 1;
    length = range[0].length;
  } else {
    return undefined;
  }
  return { repeats, length: source[index + length] === '?' ? length + 1 : length };
}

function assertBoundedBacktracking(source: string): void {
  // One entry per open group: whether it contains a repetition or an alternation. Repeating such a group is
  // what makes matching time exponential, as in (a+)+ or (a|aa)*.
  const groups: boolean[] = [false];
  let previousWasRiskyGroup = false;
  let index = 0;
  while (index < source.length) {
    const char = source[index];
    let closedRiskyGroup = false;
    const quantifier = quantifierAt(source, index);
    if (quantifier) {
      if (quantifier.repeats && previousWasRiskyGroup) {
        throw new Error('nested quantifiers (such as (a+)+ or (a|b)*) are not allowed in regular expressions');
      }
      if (quantifier.repeats) groups.fill(true);
      index += quantifier.length;
    } else if (char === '\\') {
      const next = source[index + 1] ?? '';
      if ((next >= '1' && next <= '9') || (next === 'k' && source[index + 2] === '<')) {
        throw new Error('backreferences are not allowed in regular expressions');
      }
      index += 2;
    } else if (char === '[') {
      index += 1;
      while (index < source.length && source[index] !== ']') index += source[index] === '\\' ? 2 : 1;
      index += 1;
    } else if (char === '(') {
      groups.push(false);
      index += 1;
      if (source[index] === '?') {
        // Skip the group's kind: (?: (?= (?! (?<= (?<! or a name (?<name>.
        const named = source[index + 1] === '<' && source[index + 2] !== '=' && source[index + 2] !== '!';
        index = named ? source.indexOf('>', index) + 1 : index + 2;
      }
    } else if (char === ')') {
      closedRiskyGroup = groups.pop() ?? false;
      if (groups.length === 0) groups.push(false);
      index += 1;
    } else {
      if (char === '|') groups[groups.length - 1] = true;
      index += 1;
    }
    previousWasRiskyGroup = closedRiskyGroup;
  }
}

/** Compiles a user pattern for a global replace, or throws an `Error` saying why it is refused. */
export function compileSafeRegex(pattern: string): RegExp {
  if (pattern.length > MAX_REGEX_LENGTH) throw new Error(`regular expression longer than ${MAX_REGEX_LENGTH} characters`);
  const inline = INLINE_FLAGS.exec(pattern);
  const body = inline ? pattern.slice(inline[0].length) : pattern;
  let regex: RegExp;
  try {
    regex = new RegExp(body, `g${inline?.[1] ?? ''}`);
  } catch (err) {
    // V8 repeats the pattern in its message ("Invalid regular expression: /(/g: Unterminated group").
    throw new Error(`invalid regular expression: ${(err as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '')}`);
  }
  assertBoundedBacktracking(body);
  return regex;
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
