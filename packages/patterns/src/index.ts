export { compileAlarmPatterns, compileEntityPatterns, compileEventPatterns, compileSingleEventPattern, type CompiledPatterns } from './list.js';
export { isTypedEventField, type PatternEvent } from './event.js';
export type { PatternEntity } from './entity.js';
export type { PatternAlarm } from './alarm.js';
export type { RegexCaptures } from './conditions.js';
export { PatternError, invalidPatternCode, isPatternError, ruleProblem } from './errors.js';
export { EventPatternIndex, literalPrefix, type FieldRequirement } from './event-index.js';
