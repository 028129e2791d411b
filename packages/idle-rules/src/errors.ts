import { ErrorCodes, type ErrorWording } from '@vigie/kernel';
import { absentBodyDetail } from './schemas.js';

/** The spec's texts for idle-rule bodies (Errors table and REFERENCE §4.1). */
export const idleRuleErrors: ErrorWording = {
  [ErrorCodes.BodyInvalidJson]: () => ({ status: 400, description: 'Invalid JSON' }),
  // The original read bodies only when sent as JSON: any other content type counted as no body at all.
  [ErrorCodes.BodyUnsupportedType]: () => ({ status: 400, description: `invalid idle rule: ${absentBodyDetail}` }),
  [ErrorCodes.Validation]: (e) => ({ status: 400, description: `invalid idle rule: ${e.detail}` }),
};
