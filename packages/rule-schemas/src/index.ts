export { patternRegExp, regexProblem } from './regex.js';
export { boundedRegexMatches, maxPatternDepth, patternListSchema, patternSchema, regexMatchProblem, type PatternListMessages, type PatternMessages } from './patterns.js';
export { hookTriggers, triggersWithoutEvent, type HookTrigger } from './triggers.js';
