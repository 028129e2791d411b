import { ErrorCodes, type ErrorWording } from '@vigie/kernel';

/** The spec's webhook texts for bodies; store failures and empty bodies are worded per route (`routes.ts`). */
export const webhookErrors: ErrorWording = {
  [ErrorCodes.BodyInvalidJson]: () => ({ status: 400, description: 'Invalid JSON' }),
  [ErrorCodes.Validation]: (e) => ({ status: 400, description: `invalid webhook: ${e.detail}` }),
};

/** The original's database error texts (400). */
export const databaseErrorText = {
  create: 'Error while creating an webhook',
  update: 'Error while updating an webhook',
  read: 'Can not retrieve the webhook data from database, contact your administrator.',
  list: 'Can not retrieve the webhooks list from database, contact your administrator.',
} as const;

export function storeFailure(description: string): ErrorWording {
  return { [ErrorCodes.StoreFailure]: () => ({ status: 400, description }) };
}
