import { ErrorCodes, type ErrorWording } from '@vigie/kernel';
import { requiredFieldsMessage } from './pbehavior-input.js';
import { duplicateIdMessage } from './pbehavior-service.js';

/** Kernel errors in the words of REFERENCE §4.10. */
export const pbehaviorErrors: ErrorWording = {
  [ErrorCodes.DuplicateKey]: () => ({ status: 400, description: duplicateIdMessage }),
  // Only creation requires a body: an absent one lacks every required field.
  [ErrorCodes.BodyEmpty]: () => ({ status: 400, description: requiredFieldsMessage }),
  [ErrorCodes.Validation]: (e) => ({ status: 400, description: e.detail }),
  [ErrorCodes.UnsafeFilter]: (e) => ({ status: 400, description: `Invalid filter: ${e.detail}` }),
};
