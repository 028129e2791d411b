import { ErrorCodes, type ErrorWording } from '@vigie/kernel';

export const contextGraphErrors: ErrorWording = {
  [ErrorCodes.Validation]: (e) => ({ status: 400, description: `Invalid entity query: ${e.detail}` }),
};
