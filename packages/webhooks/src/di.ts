import { defineBridge } from '@vigie/kernel';
import { SecretBox } from './secret-box.js';
import { WebhookRepository } from './webhook-repository.js';
import { WebhookService } from './webhook-service.js';

/** The webhooks feature's class graph (tsyringe) and what awilix sees of it. */
export const webhooksBridge = defineBridge({
  singletons: [SecretBox, WebhookRepository, WebhookService],
  exports: { webhookService: WebhookService, webhookSecretBox: SecretBox },
});
