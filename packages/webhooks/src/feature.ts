import { defineFeature, kernelRefs } from '@vigie/kernel';
import { alarmTriggerRedeliveredEvent, alarmTriggerEvent, triggerDryRunPoint } from '@vigie/alarms';
import { webhooksConfig, type WebhooksConfig } from './config.js';
import { deliveryCollection, ticketClaimCollection } from './delivery-repository.js';
import { attemptLeaseMs, deliverJobName, purgeJobName, type DeliverJobData, DeliveryService } from './delivery-service.js';
import { webhooksBridge } from './di.js';
import { webhookErrors } from './errors.js';
import { HttpSender } from './http-sender.js';
import { deliveryRoutes, webhookRoutes } from './routes.js';
import { WebhookSecretBox } from './secret-box.js';
import { webhookCollection } from './webhook-repository.js';

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
  config: webhooksConfig,
  register(f) {
    f.use(webhooksBridge);
    f.collection(webhookCollection);
    f.collection(deliveryCollection, { indexes: [{ keys: { status: 1 } }, { keys: { webhook: 1 } }, { keys: { alarm: 1 } }, { keys: { created: -1 } }] });
    f.collection(ticketClaimCollection);
    f.consume(alarmTriggerEvent, alarmTriggerRedeliveredEvent);
    f.extend(triggerDryRunPoint, (c) => ({ name: 'webhooks', wouldFire: (payload) => c.resolve(DeliveryService).wouldFire(payload) }));
    f.errors(webhookErrors);
    for (const route of [...webhookRoutes, ...deliveryRoutes]) f.route(route);
    f.job<DeliverJobData>({
      name: deliverJobName,
      // Attempts of different deliveries run side by side; one delivery is leased by one attempt at a time.
      concurrency: 20,
      // An attempt ends within its lease: the job of a node that died is run by another once the lease is over,
      // not after the scheduler's 10-minute default.
      lockLifetimeMs: attemptLeaseMs(f.config),
      handler: (run) => run.scope.resolve(DeliveryService).attempt(run.data.delivery),
    });
    f.job({ name: purgeJobName, every: '1 hour', handler: (run) => run.scope.resolve(DeliveryService).purge() });
    f.onInit(async (c) => {
      await c.resolve(WebhookSecretBox).load();
      const deliveries = c.resolve(DeliveryService);
      const bus = c.resolve(kernelRefs.eventBus);
      bus.on(alarmTriggerEvent, (payload) => deliveries.onTrigger(payload));
      // After a crash between an alarm change and its triggers: recorded once thanks to the delivery ids.
      bus.on(alarmTriggerRedeliveredEvent, (payload) => deliveries.onTrigger(payload));
    });
    f.onStart(async (c) => {
      const deliveries = c.resolve(DeliveryService);
      await deliveries.recover();
      // The hourly purge keeps its schedule across restarts; a start applies a changed retention at once.
      await deliveries.purge();
    });
    f.onShutdown((c) => c.resolve(HttpSender).close());
  },
});
