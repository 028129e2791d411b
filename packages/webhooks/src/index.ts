export { webhooksFeature } from './feature.js';
export { webhooksConfigSchema, type WebhooksConfig } from './config.js';
export { WebhookSecretBox, secretKeyFileName } from './secret-box.js';
export type { WebhookRecord, StoredAuth } from './webhook-repository.js';
export { WebhookService, type WebhookOutput } from './webhook-service.js';
export { webhookTriggers, httpMethods, retryUnits } from './schemas.js';
export { alarmView, entityView, stepView } from './template-views.js';
export { webhookDeliveriesRef, webhookSecretBoxRef, webhookServiceRef } from './refs.js';
