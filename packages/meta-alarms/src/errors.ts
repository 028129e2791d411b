import { ErrorCodes, type ErrorWording } from '@vigie/kernel';
import { requiredFieldsMessage } from './rule-input.js';

/** The spec's meta-alarm texts (REFERENCE §4.7); validation errors already carry theirs. */
export const metaAlarmErrors: ErrorWording = {
  [ErrorCodes.BodyInvalidJson]: (e) => ({ status: 400, description: `Malformed JSON: ${e.detail}` }),
  // The original crashes on an absent body; an empty body has neither field.
  [ErrorCodes.BodyEmpty]: () => ({ status: 400, description: requiredFieldsMessage }),
  [ErrorCodes.Validation]: (e) => ({ status: 400, description: e.detail }),
  [ErrorCodes.DuplicateKey]: () => ({ status: 400, description: 'Trying to insert MetaAlarmRule with already existing _id' }),
};
