import { join } from 'node:path';
import { inject, injectable } from 'tsyringe';
import { KernelTokens, SecretBox, type Logger } from '@vigie/kernel';
import type { WebhooksConfig } from './config.js';

/** Where the generated key lives when `[webhooks] secret_key` is not set. */
export const secretKeyFileName = 'webhooks-secret.key';

/** Seals webhook credentials at rest with the kernel's `SecretBox`, keyed by `[webhooks] secret_key` or a generated key file. */
@injectable()
export class WebhookSecretBox extends SecretBox {
  constructor(
    @inject(KernelTokens.Config) config: WebhooksConfig,
    @inject(KernelTokens.DataDir) dataDir: string,
    @inject(KernelTokens.Logger) logger: Logger,
  ) {
    super({ key: config.secret_key, keyFile: join(dataDir, secretKeyFileName), what: 'webhook secret' }, logger);
  }
}
