import { defineBridge, provide } from '@vigie/kernel';
import { alarmChangesRef, alarmReaderRef, openAlarmPreviewRef } from '@vigie/alarms';
import { entityRepositoryRef } from '@vigie/context-graph';
import { activePbehaviorsRef } from '@vigie/pbehaviors';
import { DeliveryRepository } from './delivery-repository.js';
import { DeliveryService } from './delivery-service.js';
import { HttpSender } from './http-sender.js';
import { webhookDeliveriesRef, webhookSecretBoxRef, webhookServiceRef } from './refs.js';
import { WebhookSecretBox } from './secret-box.js';
import { WebhookCatalog } from './webhook-catalog.js';
import { WebhookRepository } from './webhook-repository.js';
import { WebhookService } from './webhook-service.js';

/** The webhooks feature's class graph (tsyringe); the feature resolves its classes, dependents see its exports. */
export const webhooksBridge = defineBridge({
  imports: [alarmChangesRef, alarmReaderRef, openAlarmPreviewRef, entityRepositoryRef, activePbehaviorsRef],
  singletons: [WebhookSecretBox, WebhookRepository, WebhookCatalog, WebhookService, DeliveryRepository, HttpSender, DeliveryService],
  exports: [provide(webhookServiceRef, WebhookService), provide(webhookSecretBoxRef, WebhookSecretBox), provide(webhookDeliveriesRef, DeliveryService)],
});
