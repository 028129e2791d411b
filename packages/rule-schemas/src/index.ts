export { patternRegExp, regexProblem } from './regex.js';
export { boundedRegexMatches, maxPatternDepth, patternListSchema, patternSchema, regexMatchProblem, type PatternListMessages } from './patterns.js';
