import { ErrorCodes, type ErrorWording } from '@vigie/kernel';

/** The broadcast texts: the spec's `Invalid JSON`, the original's `Invalid payload` for wrong keys or values. */
export const broadcastErrors: ErrorWording = {
  [ErrorCodes.BodyInvalidJson]: () => ({ status: 400, description: 'Invalid JSON' }),
  [ErrorCodes.Validation]: () => ({ status: 400, description: 'Invalid payload' }),
};

/**
 * The original read bodies only when sent as JSON, so a body of another type counted as absent and got the
 * absent-body answer (`Nothing to create` on POST, `Nothing to update` on PUT).
 */
export function absentBodyErrors(description: string): ErrorWording {
  return { [ErrorCodes.BodyUnsupportedType]: () => ({ status: 400, description }) };
}
