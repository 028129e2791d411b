export { assertSafeFilter, assertSafeRegex, isSafeFieldPath, assertNoCodeExecution, safeQueryOperators, codeExecutingOperators, type SafeFilterOptions } from './filter-safety.js';
