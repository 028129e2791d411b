import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '@vigie/kernel';
import { SecretBox } from './secret-box.js';

const logger = createLogger({ level: 'silent' });
const configuredKey = Buffer.alloc(32, 7).toString('base64');

const secretKeyFileName = 'test-secret.key';
let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'vigie-secret-box-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

function box(secretKey?: string): SecretBox {
  const created = new SecretBox({ key: secretKey, keyFile: join(dataDir, secretKeyFileName), what: 'test secret' }, logger);
  created.load();
  return created;
}

describe('SecretBox', () => {
  it('seals with a fresh iv each time and opens what it sealed', () => {
    const secrets = box(configuredKey);
    const first = secrets.seal('a!(b)-c_');
    const second = secrets.seal('a!(b)-c_');
    expect(first).not.toBe(second);
    expect(first).toMatch(/^aes-256-gcm:v1:[0-9a-f]{16}:[^:]+:[^:]+:[^:]+$/);
    expect(first).not.toContain('a!(b)-c_');
    expect(secrets.open(first)).toBe('a!(b)-c_');
    expect(secrets.open(secrets.seal(''))).toBe('');
  });

  it('refuses a value sealed under another key, or altered', () => {
    const sealed = box(configuredKey).seal('secret');
    expect(() => box(Buffer.alloc(32, 9).toString('base64')).open(sealed)).toThrow(/sealed with another key/);
    const parts = sealed.split(':');
    parts[5] = Buffer.from('tampered').toString('base64');
    expect(() => box(configuredKey).open(parts.join(':'))).toThrow();
    expect(() => box(configuredKey).open('plain text')).toThrow('not a sealed test secret');
  });

  it('without a configured key, generates a key file readable by its owner only, and reuses it', () => {
    const sealed = box().seal('secret');
    const path = join(dataDir, secretKeyFileName);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const key = readFileSync(path, 'utf8');
    expect(Buffer.from(key.trim(), 'base64')).toHaveLength(32);
    expect(box().open(sealed)).toBe('secret');
    expect(readFileSync(path, 'utf8')).toBe(key);
  });

  it('uses the configured key rather than a file', () => {
    box(configuredKey);
    expect(() => statSync(join(dataDir, secretKeyFileName))).toThrow();
  });

  it('refuses a configured key that is not one', () => {
    expect(() => box('c2hvcnQ=')).toThrow('the test secret key must be the base64 encoding of 32 bytes');
  });

  it('refuses a key file that does not hold a key', () => {
    writeFileSync(join(dataDir, secretKeyFileName), 'not a key\n', { mode: 0o600 });
    expect(() => box()).toThrow(/does not hold the base64 encoding of 32 bytes/);
  });

  it('refuses to work before its key is loaded', () => {
    expect(() => new SecretBox({ keyFile: join(dataDir, secretKeyFileName), what: 'test secret' }, logger).seal('x')).toThrow('the test secret key is not loaded');
  });
});
