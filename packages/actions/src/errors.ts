import { ErrorCodes, type ErrorWording } from '@vigie/kernel';

/** The spec's texts for action bodies; validation messages are complete texts (see schemas.ts). */
export const actionErrors: ErrorWording = {
  [ErrorCodes.BodyInvalidJson]: () => ({ status: 400, description: 'Invalid JSON' }),
  [ErrorCodes.Validation]: (e) => ({ status: 400, description: e.detail }),
};

/** POST: the spec's "duplicate or database error" row; the original's answer to an absent body. */
export const createActionErrors: ErrorWording = {
  [ErrorCodes.DuplicateKey]: () => ({ status: 400, description: 'error while creating an action' }),
  [ErrorCodes.StoreFailure]: () => ({ status: 400, description: 'error while creating an action' }),
  // The original read bodies only when sent as JSON: any other content type counted as no body at all.
  [ErrorCodes.BodyUnsupportedType]: () => ({ status: 400, description: 'nothing to insert' }),
};

/** PUT: the original's texts for a database error and an absent body. */
export const updateActionErrors: ErrorWording = {
  [ErrorCodes.StoreFailure]: () => ({ status: 400, description: 'error while updating an action' }),
  [ErrorCodes.BodyUnsupportedType]: () => ({ status: 400, description: 'wrong update dict' }),
};
