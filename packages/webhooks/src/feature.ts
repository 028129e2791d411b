import { defineFeature } from '@vigie/kernel';
import { webhooksConfigSchema, type WebhooksConfig } from './config.js';
import { webhooksBridge } from './di.js';
import { webhookErrors } from './errors.js';
import { webhookRoutes } from './routes.js';
import type { WebhookSecretBox } from './secret-box.js';

/**
 * Webhooks: outbound HTTP requests fired on alarm changes, kept in `webhooks`. Exports `webhookSecretBox` so the
 * webhook engine can decrypt the stored credentials.
 */
export const webhooksFeature = defineFeature<WebhooksConfig>({
  id: 'webhooks',
  kernel: '^0.1.0',
  config: { schema: webhooksConfigSchema },
  register(f) {
    f.use(webhooksBridge, { export: ['webhookService', 'webhookSecretBox'] });
    f.errors(webhookErrors);
    for (const route of webhookRoutes) f.route(route);
    f.onInit((c) => c.resolve<WebhookSecretBox>('webhookSecretBox').load());
  },
});
