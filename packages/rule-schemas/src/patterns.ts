import { array, object, type TestConfig } from 'yup';
import { inputBounds, listField } from '@vigie/input';
import { regexProblem } from './regex.js';

/**
 * How deep a pattern value may nest. Real patterns are shallow (`current_entity.infos.<k>.value.regex_match` is the
 * deepest documented form, 5 levels); the bound keeps the walk over user input short.
 */
export const maxPatternDepth = 16;

/**
 * The first problem with the `regex_match` expressions found anywhere in a pattern value (an object, a list of
 * them, or any nesting of both), as `<path> …`; null when every expression is a string `patternRegExp` accepts.
 */
export function regexMatchProblem(value: unknown, path: string, depth = 0): string | null {
  if (depth > maxPatternDepth) return `${path} is nested deeper than ${maxPatternDepth} levels`;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const problem = regexMatchProblem(item, `${path}[${index}]`, depth + 1);
      if (problem) return problem;
    }
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, member] of Object.entries(value)) {
    const at = path === '' ? key : `${path}.${key}`;
    if (key === 'regex_match') {
      if (typeof member !== 'string') return `${at} should be a string`;
      const problem = regexProblem(member);
      if (problem) return `${at} is not an accepted regular expression: ${problem}`;
    } else {
      const problem = regexMatchProblem(member, at, depth + 1);
      if (problem) return problem;
    }
  }
  return null;
}

/**
 * A yup test refusing pattern values whose `regex_match` expressions are not strings or not bounded. The message is
 * the problem as `regexMatchProblem` states it, or what `format` makes of it (a group's own wording).
 */
export function boundedRegexMatches(format: (problem: string) => string = (problem) => problem): TestConfig {
  return {
    name: 'bounded-regex-matches',
    test(value, context) {
      const problem = regexMatchProblem(value, context.path);
      // A function message: user-chosen keys in the path must not be read as yup `${…}` placeholders.
      return problem === null || context.createError({ message: () => format(problem) });
    },
  };
}

export interface PatternListMessages {
  /** When the value is neither a list nor null; `${path} should be a list of objects or null` by default. */
  list?: string;
  /** When an element is not an object (or null); `${path} should be an object` by default (path of the element). */
  item?: string;
  /** Turns a `regex_match` problem into the group's wording; the problem as is by default. */
  regex?: (problem: string) => string;
  /** When the list holds more than `inputBounds.patternCount` (100) patterns; `${path} must have at most ${max} elements` by default. */
  tooMany?: string;
}

/**
 * A list of patterns (OR'ed; inside one pattern every field must match) or null: `alarm_patterns`,
 * `entity_patterns`, `event_patterns`, `patterns`. Elements are objects whose grammar the engines interpret;
 * only their `regex_match` expressions are checked here. At most `inputBounds.patternCount` (100) patterns.
 */
export function patternListSchema(messages: PatternListMessages = {}) {
  const item = messages.item ?? '${path} should be an object';
  const list = array(object().nonNullable(item).typeError(item));
  return (messages.tooMany ? list.max(inputBounds.patternCount, messages.tooMany) : listField(list, inputBounds.patternCount))
    .nullable()
    .typeError(messages.list ?? '${path} should be a list of objects or null')
    .test(boundedRegexMatches(messages.regex));
}

export interface PatternMessages {
  /** When the value is not an object; `${path} should be an object` by default. */
  object?: string;
  /** Turns a `regex_match` problem into the group's wording; the problem as is by default. */
  regex?: (problem: string) => string;
}

/** One pattern object (the event filter's `pattern`), with the same `regex_match` checks. */
export function patternSchema(messages: PatternMessages = {}) {
  return object()
    .typeError(messages.object ?? '${path} should be an object')
    .test(boundedRegexMatches(messages.regex));
}
