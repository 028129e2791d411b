import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import type { Logger } from '@vigie/kernel';

/** A 256-bit key written in base64, or null when the text is not one. */
export function decodeSecretKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed)) return null;
  const key = Buffer.from(trimmed, 'base64');
  return key.length === 32 ? key : null;
}

const scheme = 'aes-256-gcm:v1';

/** Identifies a key without revealing it, so a value sealed under another key is recognised as such. */
function fingerprint(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

export interface SecretBoxOptions {
  /** The key from configuration (base64 of 32 bytes), if the deployer set one. */
  key?: string;
  /** Where the key is generated at first use (mode 0600) and read afterwards, when no key is configured. */
  keyFile: string;
  /** What is sealed, for messages (`webhook secret`, `LDAP bind password`). */
  what: string;
}

/**
 * Encrypts secrets stored by features (webhook credentials, the LDAP bind password) with AES-256-GCM. A sealed
 * value is the text `aes-256-gcm:v1:<key fingerprint>:<iv>:<tag>:<ciphertext>` (base64 parts), so the stored
 * field stays a string. The key comes from the feature's configuration, else from a key file generated once.
 */
export class SecretBox {
  #key: Buffer | undefined;

  constructor(
    private readonly options: SecretBoxOptions,
    private readonly logger: Logger,
  ) {}

  /** Reads (or creates) the key; features call it at init so a bad key file stops the start. */
  load(): void {
    if (this.options.key !== undefined) {
      const key = decodeSecretKey(this.options.key);
      if (!key) throw new Error(`the ${this.options.what} key must be the base64 encoding of 32 bytes`);
      this.#key = key;
    } else {
      this.#key = this.#keyFile();
    }
  }

  seal(plaintext: string): string {
    const key = this.#loadedKey();
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [scheme, fingerprint(key), iv.toString('base64'), cipher.getAuthTag().toString('base64'), ciphertext.toString('base64')].join(':');
  }

  /** The plaintext of a sealed value; throws when it was sealed under another key or altered. */
  open(sealed: string): string {
    const key = this.#loadedKey();
    const parts = sealed.split(':');
    if (parts.length !== 6 || `${parts[0]}:${parts[1]}` !== scheme) throw new Error(`not a sealed ${this.options.what}`);
    const [, , keyId, iv, tag, ciphertext] = parts as [string, string, string, string, string, string];
    if (keyId !== fingerprint(key)) {
      throw new Error(`the ${this.options.what} was sealed with another key (fingerprint ${keyId}, current ${fingerprint(key)}); send it again`);
    }
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64')), decipher.final()]).toString('utf8');
  }

  #loadedKey(): Buffer {
    if (!this.#key) throw new Error(`the ${this.options.what} key is not loaded`);
    return this.#key;
  }

  #keyFile(): Buffer {
    const path = this.options.keyFile;
    try {
      // `wx`: never overwrite a key another process has just written.
      writeFileSync(path, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
      this.logger.info({ path }, `generated the ${this.options.what} key`);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if ((statSync(path).mode & 0o077) !== 0) this.logger.warn({ path }, `the ${this.options.what} key file is readable by other users; make it mode 0600`);
    const key = decodeSecretKey(readFileSync(path, 'utf8'));
    if (!key) throw new Error(`${path} does not hold the base64 encoding of 32 bytes`);
    return key;
  }
}
