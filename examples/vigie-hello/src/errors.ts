import { ErrorCodes, type ErrorWording } from '@vigie/kernel';

/** How the plugin words the kernel's body and validation errors. */
export const helloErrors: ErrorWording = {
  [ErrorCodes.BodyInvalidJson]: () => ({ status: 400, description: 'Invalid JSON' }),
  [ErrorCodes.BodyEmpty]: () => ({ status: 400, description: 'A JSON body is required' }),
  [ErrorCodes.Validation]: (e) => ({ status: 400, description: `invalid visit: ${e.detail}` }),
};
