import { VigieError, hasCode } from '@vigie/kernel';

/** Code of the error a pattern that cannot be compiled raises; callers skip the rule that holds it. */
export const invalidPatternCode = 'INVALID_PATTERN';

/** A pattern the grammar refuses: unknown field or operator, wrong value type, refused regular expression. */
export class PatternError extends VigieError {
  constructor(path: string, problem: string) {
    const detail = path === '' ? problem : `${path}: ${problem}`;
    super(invalidPatternCode, detail, { detail });
    this.name = 'PatternError';
  }
}

/** Whether `err` is a `PatternError` (by code, so that two copies of this package agree). */
export function isPatternError(err: unknown): err is PatternError {
  return hasCode(err, invalidPatternCode);
}

/** What makes a rule inapplicable, in words: a pattern's detail, or the message of the check that refused it. */
export function ruleProblem(err: unknown): string {
  return isPatternError(err) ? err.detail : err instanceof Error ? err.message : String(err);
}
