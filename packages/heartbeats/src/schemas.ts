import { array, mixed, object, string, type InferType } from 'yup';
import { inputBounds } from '@vigie/input';
import type { HeartbeatPattern } from './heartbeat-id.js';

/**
 * `<digits><s|m|h>`, at least one digit. The heartbeat engine parses the interval as a Go duration, which knows
 * no days or weeks (hence not the kernel's `durationPattern`), and the original's `"m"` without digits stopped it.
 */
export const expectedIntervalPattern = /^[0-9]+(s|m|h)$/;

/** At most this many event fields in one pattern (there are about twenty event fields). */
const maxPatternFields = 100;

/** Event fields and the values they must hold: at least one, at most `maxPatternFields`, each value a bounded string. */
function isPattern(value: unknown): value is HeartbeatPattern {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const entries = Object.entries(value);
  return (
    entries.length > 0 &&
    entries.length <= maxPatternFields &&
    entries.every(([k, v]) => typeof v === 'string' && k.length <= inputBounds.nameLength && v.length <= inputBounds.nameLength)
  );
}

export const heartbeatPatternSchema = mixed<HeartbeatPattern>(isPattern).meta({
  jsonSchema: {
    type: 'object',
    description: 'Event fields and the exact values they must hold, e.g. connector and connector_name',
    minProperties: 1,
    maxProperties: maxPatternFields,
    additionalProperties: { type: 'string', maxLength: inputBounds.nameLength },
  },
});

/** POST and PUT bodies. Other keys are ignored, as the original ignores them. */
export const heartbeatInputSchema = object({
  pattern: heartbeatPatternSchema.required(),
  expected_interval: string()
    .matches(expectedIntervalPattern, '${path} must be a number followed by s, m or h')
    .required()
    .meta({ jsonSchema: { description: 'Longest silence allowed before the heartbeat raises an alarm, e.g. 10s, 15m, 1h' } }),
  output: string()
    .optional()
    .max(4096)
    .meta({ jsonSchema: { description: 'Output of the alarm the heartbeat raises (4.x field); empty when absent' } }),
});

/** What a client sends to create or update a heartbeat, once validated (other keys are ignored). */
export type HeartbeatInput = InferType<typeof heartbeatInputSchema>;

/** A heartbeat as the API shows it. */
export const heartbeatSchema = object({
  _id: string().required().meta({ jsonSchema: { description: 'md5 of the pattern (sorted keys, each followed by its value)' } }),
  pattern: heartbeatPatternSchema.required(),
  expected_interval: string().required(),
});

export type Heartbeat = InferType<typeof heartbeatSchema>;

export const heartbeatListSchema = array(heartbeatSchema).required();

/** `{name, description}`: the outcome of a change (`heartbeat created` and the id) or an error. */
export const outcomeSchema = object({ name: string().defined(), description: string().defined() });
