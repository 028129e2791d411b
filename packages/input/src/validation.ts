import { number, object, string, ValidationError, type Schema, type ValidateOptions } from 'yup';
import { ErrorCodes, VigieError } from '@vigie/kernel';
import { assertWithinInputBounds } from './input-bounds.js';

/** yup's options, plus whether the input bounds apply (they do unless `bounded: false`). */
export interface CheckOptions extends ValidateOptions {
  /**
   * `false` for trusted values (configuration files) or documents that are legitimately larger than the input bounds;
   * user input is always bounded.
   */
  bounded?: boolean;
}

/**
 * Validates and casts `value` with a yup schema. On failure throws a `VALIDATION` error whose `detail` is the
 * first problem (path-qualified, e.g. `retry.unit must be one of s, m, h`) and whose `details` lists them all;
 * features word it through their error table. Pass `{ strict: true }` for request bodies: values are then
 * checked as sent (no casting of 42 to "42", unknown keys refused by `noUnknown()` instead of stripped).
 * Values beyond the input bounds (`assertWithinInputBounds`: any string over 64 KiB, list over 10000 elements,
 * object over 1000 keys, nesting over 512) are refused the same way, whatever the schema.
 */
export function validate<T>(schema: Schema<T>, value: unknown, options: CheckOptions = {}): T {
  const { bounded = true, ...yupOptions } = options;
  // Before yup: its messages print the value, and no field of any schema may hold more than the input bounds.
  if (bounded) assertWithinInputBounds(value);
  try {
    return schema.validateSync(value, { abortEarly: false, ...yupOptions });
  } catch (err) {
    if (err instanceof ValidationError || (err as { name?: string }).name === 'ValidationError') {
      const v = err as ValidationError;
      const messages = v.inner.length > 0 ? v.inner.flatMap((e) => e.errors) : v.errors;
      throw new VigieError(ErrorCodes.Validation, messages[0] ?? v.message, { detail: messages[0] ?? v.message, details: messages, cause: err });
    }
    throw err;
  }
}

/** Durations written as `<number><unit>`, e.g. `10s`, `3m`, `1h`. */
export const durationPattern = /^([0-9]+)(s|m|h|d|w)$/;

const unitSeconds: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 };

/** A duration `{value, unit}` (the API's duration-with-unit: a positive integer and a unit among s, m, h, d, w). */
export interface DurationWithUnit {
  value: number;
  unit: string;
}

/** Seconds in a `{value, unit}` duration. */
export function durationWithUnitSeconds(duration: DurationWithUnit): number {
  return duration.value * (unitSeconds[duration.unit] ?? 1);
}

/**
 * The schema of a `{value, unit}` duration named `name` in its messages (`<name>.value must be at least 1`), at most
 * `maxSeconds` long. Absent unless the caller marks it required.
 */
export function durationWithUnitSchema(name: string, maxSeconds: number) {
  const units = Object.keys(unitSeconds);
  return object({
    value: number().typeError(`${name}.value must be an integer`).required(`${name}.value is required`).integer(`${name}.value must be an integer`).min(1, `${name}.value must be at least 1`),
    unit: string().typeError(`${name}.unit must be a string`).required(`${name}.unit is required`).oneOf(units, `${name}.unit must be one of ${units.join(', ')}`),
  })
    .default(undefined)
    .typeError(`${name} must be an object {value, unit}`)
    .noUnknown(`the following keys of ${name} are invalid: \${unknown}`)
    .test('duration-bound', `${name} must be at most ${maxSeconds} seconds`, (value) => value?.value === undefined || value.unit === undefined || durationWithUnitSeconds(value as DurationWithUnit) <= maxSeconds);
}

/** Seconds in a duration string, or null if it is not one. */
export function durationSeconds(text: string): number | null {
  const m = durationPattern.exec(text);
  if (!m) return null;
  return Number(m[1]) * (unitSeconds[m[2] as string] as number);
}

/** A configuration key holding a `<number><unit>` duration, `fallback` when absent, its error naming the key. */
export function durationSetting(key: string, fallback: string) {
  return string().default(fallback).matches(durationPattern, `${key} must be a number followed by a unit among s, m, h, d, w, such as ${fallback}`);
}
