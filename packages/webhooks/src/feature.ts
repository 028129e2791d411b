import { defineFeature, type EventBus } from '@vigie/kernel';
import { webhooksConfigSchema, type WebhooksConfig } from './config.js';
import type { DeliveryRepository } from './delivery-repository.js';
import { deliverJobName, purgeJobName, type DeliverJobData, type DeliveryService } from './delivery-service.js';
import { webhooksBridge } from './di.js';
import { webhookErrors } from './errors.js';
import type { HttpSender } from './http-sender.js';
import { deliveryRoutes, webhookRoutes } from './routes.js';
import type { WebhookSecretBox } from './secret-box.js';

/**
 * Webhooks: the `/api/v2/webhook` routes (kept in `webhooks`, the password encrypted at rest) and the delivery
 * engine: each `alarms.trigger` matching a webhook records a delivery, sent by `webhooks.deliver` jobs with retries,
 * an `Idempotency-Key`, at most one declared ticket per alarm and webhook, and failed deliveries kept and replayable
 * through `/api/v2/webhook-deliveries`. Exports `webhookSecretBox` and `webhookDeliveries`.
 */
export const webhooksFeature = defineFeature<WebhooksConfig>({
  id: 'webhooks',
  kernel: '^0.1.0',
  dependsOn: ['alarms', 'context-graph', 'pbehaviors'],
  config: { schema: webhooksConfigSchema },
  register(f) {
    f.use(webhooksBridge, { export: ['webhookService', 'webhookSecretBox', 'webhookDeliveries'] });
    f.errors(webhookErrors);
    for (const route of [...webhookRoutes, ...deliveryRoutes]) f.route(route);
    f.job<DeliverJobData>({
      name: deliverJobName,
      // Attempts of different deliveries run side by side; one delivery is leased by one attempt at a time.
      concurrency: 20,
      handler: (run) => run.scope.resolve<DeliveryService>('webhookDeliveries').attempt(run.data.delivery),
    });
    f.job({ name: purgeJobName, every: '1 hour', handler: (run) => run.scope.resolve<DeliveryService>('webhookDeliveries').purge() });
    f.onInit(async (c) => {
      await c.resolve<WebhookSecretBox>('webhookSecretBox').load();
      await c.resolve<DeliveryRepository>('webhookDeliveryRepository').ensureIndexes();
      const deliveries = c.resolve<DeliveryService>('webhookDeliveries');
      const bus = c.resolve<EventBus>('eventBus');
      bus.on('alarms.trigger', (payload) => deliveries.onTrigger(payload));
      // After a crash between an alarm change and its triggers: recorded once thanks to the delivery ids.
      bus.on('alarms.trigger.redelivered', (payload) => deliveries.onTrigger(payload));
    });
    f.onStart(async (c) => {
      const deliveries = c.resolve<DeliveryService>('webhookDeliveries');
      await deliveries.recover();
      // The hourly purge keeps its schedule across restarts; a start applies a changed retention at once.
      await deliveries.purge();
    });
    f.onShutdown((c) => c.resolve<HttpSender>('webhookHttpSender').close());
  },
});
