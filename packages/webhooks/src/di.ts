import { defineBridge } from '@vigie/kernel';
import { WebhookSecretBox } from './secret-box.js';
import { WebhookRepository } from './webhook-repository.js';
import { WebhookService } from './webhook-service.js';

/** The webhooks feature's class graph (tsyringe) and what awilix sees of it. */
export const webhooksBridge = defineBridge({
  singletons: [WebhookSecretBox, WebhookRepository, WebhookService],
  exports: { webhookService: WebhookService, webhookSecretBox: WebhookSecretBox },
});
