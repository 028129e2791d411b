import { defineBridge } from '@vigie/kernel';
import { DeliveryRepository } from './delivery-repository.js';
import { DeliveryService } from './delivery-service.js';
import { HttpSender } from './http-sender.js';
import { WebhookSecretBox } from './secret-box.js';
import { WebhooksTokens } from './tokens.js';
import { WebhookCatalog } from './webhook-catalog.js';
import { WebhookRepository } from './webhook-repository.js';
import { WebhookService } from './webhook-service.js';

/** The webhooks feature's class graph (tsyringe) and what awilix sees of it. */
export const webhooksBridge = defineBridge({
  imports: {
    alarmChanges: WebhooksTokens.AlarmChanges,
    alarmReader: WebhooksTokens.AlarmReader,
    entityRepository: WebhooksTokens.EntityRepository,
    activePbehaviors: WebhooksTokens.ActivePbehaviors,
  },
  singletons: [WebhookSecretBox, WebhookRepository, WebhookCatalog, WebhookService, DeliveryRepository, HttpSender, DeliveryService],
  exports: {
    webhookService: WebhookService,
    webhookSecretBox: WebhookSecretBox,
    webhookDeliveries: DeliveryService,
    webhookDeliveryRepository: DeliveryRepository,
    webhookHttpSender: HttpSender,
  },
});
