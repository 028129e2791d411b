import { ErrorCodes, type ErrorWording, type VigieError } from '@vigie/kernel';

/**
 * The spec answers an invalid POST or PUT body with status 500 and an HTML page, the trace going to the server
 * log (the kernel logs the cause of every 5xx). Vigie keeps that answer on purpose, but words the page.
 */
const invalidBody = (e: VigieError) => ({ status: 500, description: `invalid alarm filter: ${e.detail}`, format: 'html' as const });

export const alarmFilterErrors: ErrorWording = {
  [ErrorCodes.BodyInvalidJson]: invalidBody,
  [ErrorCodes.BodyEmpty]: invalidBody,
  [ErrorCodes.BodyUnsupportedType]: invalidBody,
  [ErrorCodes.Validation]: invalidBody,
  [ErrorCodes.UnsafeFilter]: invalidBody,
  // Not in the spec: the original silently overwrote an action whose `_id` a client reused.
  [ErrorCodes.DuplicateKey]: () => ({ status: 400, description: 'an alarm filter with this _id already exists' }),
};
