import { ErrorCodes, type ErrorWording } from '@vigie/kernel';

const invalidPayload = () => ({ status: 400, description: 'invalid heartbeat payload.' });

/** The spec's heartbeat texts: every unusable body is an invalid payload (the original said `invalid json.` for some). */
export const heartbeatErrors: ErrorWording = {
  [ErrorCodes.BodyInvalidJson]: invalidPayload,
  [ErrorCodes.BodyEmpty]: invalidPayload,
  [ErrorCodes.BodyUnsupportedType]: invalidPayload,
  [ErrorCodes.Validation]: invalidPayload,
  [ErrorCodes.DuplicateKey]: () => ({ status: 400, description: 'heartbeat pattern already exists' }),
  [ErrorCodes.StoreFailure]: () => ({ status: 400, description: 'database error, please contact your administrator.' }),
};
