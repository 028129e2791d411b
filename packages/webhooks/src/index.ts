export { webhooksFeature } from './feature.js';
export { webhooksConfigSchema, decodeSecretKey, type WebhooksConfig } from './config.js';
export { SecretBox, secretKeyFileName } from './secret-box.js';
export type { WebhookRecord, StoredAuth } from './webhook-repository.js';
export { WebhookService, type WebhookOutput } from './webhook-service.js';
export { webhookTriggers, httpMethods, retryUnits } from './schemas.js';
