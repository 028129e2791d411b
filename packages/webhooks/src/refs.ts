import { serviceRef } from '@vigie/kernel';
import type { DeliveryService } from './delivery-service.js';
import type { WebhookSecretBox } from './secret-box.js';
import type { WebhookService } from './webhook-service.js';

/** The webhooks (CRUD) of the API. */
export const webhookServiceRef = serviceRef<WebhookService>('webhooks.service');

/** Seals the webhooks' secrets at rest. */
export const webhookSecretBoxRef = serviceRef<WebhookSecretBox>('webhooks.secretBox');

/** The deliveries of the webhooks (attempts, purge, listing). */
export const webhookDeliveriesRef = serviceRef<DeliveryService>('webhooks.deliveries');
