export { assertSafeFilter, assertSafeRegex, parseSafeFilter, isSafeFieldPath, assertNoCodeExecution, safeQueryOperators, codeExecutingOperators, type SafeFilterOptions } from './filter-safety.js';
