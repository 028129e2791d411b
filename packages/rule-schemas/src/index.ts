export { patternRegExp, regexProblem } from './regex.js';
export { boundedRegexMatches, maxPatternDepth, patternListSchema, patternSchema, regexMatchProblem, type PatternListMessages, type PatternMessages } from './patterns.js';
export {
  PreviewCollector,
  previewAlarmSchema,
  previewAnswerSchema,
  previewEntitySchema,
  previewEventSchema,
  previewPageLimit,
  previewQuerySchema,
  previewRoute,
  type PreviewPage,
  type PreviewSubject,
} from './preview.js';
export { hookTriggers, triggersWithoutEvent, type HookTrigger } from './triggers.js';
