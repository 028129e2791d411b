import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject, injectable } from 'tsyringe';
import { KernelTokens, type Logger } from '@vigie/kernel';
import { decodeSecretKey, type WebhooksConfig } from './config.js';

/** Where the generated key lives when `[webhooks] secret_key` is not set. */
export const secretKeyFileName = 'webhooks-secret.key';

const scheme = 'aes-256-gcm:v1';

/** Identifies a key without revealing it, so a value sealed under another key is recognised as such. */
function fingerprint(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

/**
 * Encrypts webhook credentials at rest with AES-256-GCM. A sealed value is the text
 * `aes-256-gcm:v1:<key fingerprint>:<iv>:<tag>:<ciphertext>` (base64 parts), so the stored field stays a string.
 * The key comes from `[webhooks] secret_key`, else from a key file generated under the data directory at first start.
 */
@injectable()
export class SecretBox {
  #key: Buffer | undefined;

  constructor(
    @inject(KernelTokens.Config) private readonly config: Pick<WebhooksConfig, 'secret_key'>,
    @inject(KernelTokens.DataDir) private readonly dataDir: string,
    @inject(KernelTokens.Logger) private readonly logger: Logger,
  ) {}

  /** Reads (or creates) the key; the feature calls it at init so a bad key file stops the start. */
  load(): void {
    this.#key = this.config.secret_key === undefined ? this.#keyFile() : (decodeSecretKey(this.config.secret_key) as Buffer);
  }

  seal(plaintext: string): string {
    const key = this.#loadedKey();
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [scheme, fingerprint(key), iv.toString('base64'), cipher.getAuthTag().toString('base64'), ciphertext.toString('base64')].join(':');
  }

  /** The plaintext of a sealed value (for the webhook engine); throws when it was sealed under another key or altered. */
  open(sealed: string): string {
    const key = this.#loadedKey();
    const parts = sealed.split(':');
    if (parts.length !== 6 || `${parts[0]}:${parts[1]}` !== scheme) throw new Error('not a sealed webhook secret');
    const [, , keyId, iv, tag, ciphertext] = parts as [string, string, string, string, string, string];
    if (keyId !== fingerprint(key)) {
      throw new Error(`the secret was sealed with another key (fingerprint ${keyId}, current ${fingerprint(key)}); send the password again`);
    }
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64')), decipher.final()]).toString('utf8');
  }

  #loadedKey(): Buffer {
    if (!this.#key) throw new Error('the webhook secret key is not loaded');
    return this.#key;
  }

  #keyFile(): Buffer {
    const path = join(this.dataDir, secretKeyFileName);
    try {
      // `wx`: never overwrite a key another process has just written.
      writeFileSync(path, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
      this.logger.info({ path }, 'generated the webhook secret key');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if ((statSync(path).mode & 0o077) !== 0) this.logger.warn({ path }, 'the webhook secret key file is readable by other users; make it mode 0600');
    const key = decodeSecretKey(readFileSync(path, 'utf8'));
    if (!key) throw new Error(`${path} does not hold the base64 encoding of 32 bytes`);
    return key;
  }
}
