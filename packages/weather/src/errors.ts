import { ErrorCodes, type ErrorWording } from '@vigie/kernel';

/** Kernel errors of the weather routes. */
export const weatherErrors: ErrorWording = {
  [ErrorCodes.UnsafeFilter]: (e) => ({ status: 400, description: `Invalid filter: ${e.detail}` }),
  [ErrorCodes.Validation]: (e) => ({ status: 400, description: e.detail }),
};
