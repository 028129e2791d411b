import { array, object, string } from 'yup';
import { inputBounds } from '@vigie/kernel';

/**
 * `<digits><s|m|h>`, at least one digit. The heartbeat engine parses the interval as a Go duration, which knows
 * no days or weeks (hence not the kernel's `durationPattern`), and the original's `"m"` without digits stopped it.
 */
export const expectedIntervalPattern = /^[0-9]+(s|m|h)$/;

/** At most this many event fields in one pattern (there are about twenty event fields). */
const maxPatternFields = 100;

function isStringMap(value: unknown): boolean {
  if (value === undefined) return true;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const entries = Object.entries(value);
  return (
    entries.length > 0 &&
    entries.length <= maxPatternFields &&
    entries.every(([k, v]) => typeof v === 'string' && k.length <= inputBounds.nameLength && v.length <= inputBounds.nameLength)
  );
}

export const heartbeatPatternSchema = object()
  .test('string-map', `\${path} must be a non-empty object of at most ${maxPatternFields} string values of at most ${inputBounds.nameLength} characters`, isStringMap)
  .meta({
    jsonSchema: {
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

export const heartbeatSchema = object({
  _id: string().required().meta({ jsonSchema: { description: 'md5 of the pattern (sorted keys, each followed by its value)' } }),
  pattern: heartbeatPatternSchema.required(),
  expected_interval: string().required(),
});

export const heartbeatListSchema = array(heartbeatSchema).required();

/** `{name, description}`: the outcome of a change (`heartbeat created` and the id) or an error. */
export const outcomeSchema = object({ name: string().defined(), description: string().defined() });
