import { defineFeature } from '@vigie/kernel';
import { amqpConfig, type AmqpConfig } from './amqp-config.js';
import { AmqpIngestion } from './amqp-ingestion.js';
import { eventsAmqpBridge } from './di.js';
import { amqpConfigRef } from './refs.js';

/**
 * Event ingestion from RabbitMQ, configured by `[amqp]` (nothing happens while `url` is empty). A feature of its own
 * so that `[amqp]` is its configuration section; it hands every event to the events feature's durable queue.
 */
export const eventsAmqpFeature = defineFeature<AmqpConfig>({
  id: 'events-amqp',
  kernel: '^0.1.0',
  dependsOn: ['events'],
  config: amqpConfig,
  register(f) {
    f.use(eventsAmqpBridge);
    f.service(amqpConfigRef, () => f.config, { export: true });
    if (f.config.url !== '') {
      f.healthCheck({ name: 'engines.amqp-ingestion', check: (c) => c.resolve(AmqpIngestion).health() });
    }
    f.onStart((c) => c.resolve(AmqpIngestion).start());
    f.onBeforeShutdown((c) => c.resolve(AmqpIngestion).stop());
  },
});
