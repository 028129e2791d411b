import { join } from 'node:path';
import { injectable } from 'tsyringe';
import { injectRef, kernelRefs, type Logger } from '@vigie/kernel';
import { SecretBox } from '@vigie/feature-kit';
import { webhooksConfig, type WebhooksConfig } from './config.js';

/** Where the generated key lives when `[webhooks] secret_key` is not set. */
export const secretKeyFileName = 'webhooks-secret.key';

/** Seals webhook credentials at rest with the kernel's `SecretBox`, keyed by `[webhooks] secret_key` or a generated key file. */
@injectable()
export class WebhookSecretBox extends SecretBox {
  constructor(
    @injectRef(webhooksConfig.ref) config: WebhooksConfig,
    @injectRef(kernelRefs.dataDir) dataDir: string,
    @injectRef(kernelRefs.logger) logger: Logger,
  ) {
    super({ key: config.secret_key, keyFile: join(dataDir, secretKeyFileName), what: 'webhook secret' }, logger);
  }
}
