import { assertSafeRegex } from '@vigie/filter-safety';
import { errorDetail } from '@vigie/kernel';

/** Go's inline flags at the very start of an expression (`(?i)`, `(?is)`), which JavaScript spells as flags. */
const leadingInlineFlags = /^\(\?([ims]+)\)/;

/** Go's named group `(?P<name>`, not preceded by an escaping backslash; JavaScript spells it `(?<name>`. */
const goNamedGroup = /((?:^|[^\\])(?:\\\\)*)\(\?P</g;

/**
 * Compiles a user-written regular expression (`regex_match` in patterns, an action's `regex`) the way the engines
 * run it. Expressions are written in the original's Go (RE2) spelling: leading inline flags such as `(?i)` and
 * named groups `(?P<name>…)` are translated to JavaScript. The expression must also pass the kernel's
 * `assertSafeRegex` (at most 256 characters, no backreference, no nested unbounded quantifier), so matching
 * stays bounded on a backtracking engine. Throws the kernel's `UNSAFE_FILTER` error otherwise.
 */
export function patternRegExp(expression: string): RegExp {
  const flags = leadingInlineFlags.exec(expression);
  const source = (flags ? expression.slice(flags[0].length) : expression).replace(goNamedGroup, '$1(?<');
  assertSafeRegex(source);
  return new RegExp(source, flags?.[1] ?? '');
}

/** Why `patternRegExp` refuses an expression, or null when it accepts it. */
export function regexProblem(expression: string): string | null {
  try {
    patternRegExp(expression);
    return null;
  } catch (err) {
    return errorDetail(err);
  }
}
