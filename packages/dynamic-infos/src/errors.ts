import { ErrorCodes, type ErrorWording } from '@vigie/kernel';

/** The spec's dynamic-infos texts for bodies; store failures are worded per route (`routes.ts`). */
export const dynamicInfosErrors: ErrorWording = {
  [ErrorCodes.BodyInvalidJson]: () => ({ status: 400, description: 'Invalid JSON' }),
  [ErrorCodes.BodyEmpty]: () => ({ status: 400, description: 'invalid dynamic infos: the request body is empty' }),
  [ErrorCodes.Validation]: (e) => ({ status: 400, description: `invalid dynamic infos: ${e.detail}` }),
};

/** A store failure answered with a fixed text (the original's `HTTP_ERROR`, 400). */
export function storeFailure(description: string): ErrorWording {
  return { [ErrorCodes.StoreFailure]: () => ({ status: 400, description }) };
}
