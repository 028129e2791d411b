export { assertSafeFilter, assertSafeRegex, assertNoCodeExecution, safeQueryOperators, codeExecutingOperators, type SafeFilterOptions } from './filter-safety.js';
