import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '@vigie/kernel';
import { startFeatureTest, type TestKernel, type TestResponse } from '@vigie/testkit';
import { secretKeyFileName, WebhookSecretBox, type WebhookRecord } from '../src/index.js';
import { webhookFeatures } from './harness.js';

let t: TestKernel | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await t?.stop();
  t = undefined;
});

const webhooks = '/api/v2/webhook';
const firstPassword = 'Sup3r$ecret-first';
const secondPassword = 'An0ther$ecret-second';
const numericPassword = 987654321;

function webhook(password: unknown, overrides: Record<string, unknown> = {}) {
  return {
    _id: 'ticketing',
    hook: { triggers: ['create'] },
    request: { method: 'POST', url: 'https://tickets.example.com/api', auth: { username: 'svc', password }, payload: '{"c": "{{ .Alarm.Value.Component }}"}' },
    ...overrides,
  };
}

const sealedPassword = async (kernel: TestKernel) =>
  (await kernel.kernel.store.collection<WebhookRecord>('webhooks').findOne({ _id: 'ticketing' }))?.request.auth?.password as string;
const secretBox = (kernel: TestKernel) => kernel.kernel.scope('webhooks').resolve(WebhookSecretBox);

describe('webhook credentials never leave the server', () => {
  it('no response and no log line holds the password, whatever the route or the outcome', async () => {
    const lines: string[] = [];
    t = await startFeatureTest({
      features: webhookFeatures,
      logger: createLogger({ level: 'trace', destination: { write: (line: string) => void lines.push(line) } }),
      config: { 'webserver.conf': { log: { access: 'true' } } },
    });
    const kernel = t;
    const responses: TestResponse[] = [];
    const send = async (response: Promise<TestResponse>) => {
      const res = await response;
      responses.push(res);
      return res;
    };

    expect((await send(kernel.post(webhooks, webhook(firstPassword)))).status).toBe(200);
    expect((await send(kernel.get(`${webhooks}/ticketing`))).status).toBe(200);
    expect((await send(kernel.get(webhooks))).status).toBe(200);
    expect((await send(kernel.post(webhooks, webhook(firstPassword)))).status).toBe(400);
    expect((await send(kernel.post(webhooks, webhook(firstPassword, { _id: 'broken', request: { ...webhook(firstPassword).request, url: 'https://x/{{ .Bad ' } })))).status).toBe(400);
    expect((await send(kernel.post(webhooks, webhook(numericPassword, { _id: 'numeric' })))).status).toBe(400);
    expect((await send(kernel.post(webhooks, { ...webhook(firstPassword, { _id: 'extra' }), colour: firstPassword }))).status).toBe(400);
    expect((await send(kernel.put(`${webhooks}/ticketing`, webhook(secondPassword)))).status).toBe(200);
    const shown = (await send(kernel.get(`${webhooks}/ticketing`))).body as object;
    expect((await send(kernel.put(`${webhooks}/ticketing`, shown))).status).toBe(200);
    expect(secretBox(kernel).open(await sealedPassword(kernel))).toBe(secondPassword);
    vi.spyOn(kernel.kernel.store.collection('webhooks'), 'insertOne').mockRejectedValueOnce(new Error('the disk caught fire'));
    expect((await send(kernel.post(webhooks, webhook(firstPassword, { _id: 'crash' })))).status).toBe(500);
    expect((await send(kernel.delete(`${webhooks}/ticketing`))).status).toBe(200);

    const secrets = [firstPassword, secondPassword, String(numericPassword)];
    for (const res of responses) {
      for (const secret of secrets) expect(res.text).not.toContain(secret);
    }
    expect(lines.some((line) => line.includes('"msg":"request"'))).toBe(true);
    expect(lines.some((line) => line.includes('webhook created'))).toBe(true);
    expect(lines.some((line) => line.includes('the disk caught fire'))).toBe(true);
    for (const line of lines) {
      for (const secret of secrets) expect(line).not.toContain(secret);
    }
  });
});

describe('the webhook secret key', () => {
  it('is generated once under the data directory, mode 0600, and reused after a restart', async () => {
    const installDir = mkdtempSync(join(tmpdir(), 'vigie-webhooks-'));
    try {
      t = await startFeatureTest({ features: webhookFeatures, installDir });
      await t.post(webhooks, webhook(firstPassword));
      const sealed = await sealedPassword(t);
      const keyFile = join(installDir, 'var', 'lib', secretKeyFileName);
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      await t.stop();

      t = await startFeatureTest({ features: webhookFeatures, installDir });
      expect(await sealedPassword(t)).toBe(sealed);
      expect(secretBox(t).open(sealed)).toBe(firstPassword);
    } finally {
      await t?.stop();
      t = undefined;
      rmSync(installDir, { recursive: true, force: true });
    }
  });

  it('comes from [webhooks] secret_key when set, and no file is written', async () => {
    const secretKey = Buffer.alloc(32, 1).toString('base64');
    t = await startFeatureTest({ features: webhookFeatures, config: { 'webserver.conf': { webhooks: { secret_key: secretKey } } } });
    await t.post(webhooks, webhook(firstPassword));
    expect(secretBox(t).open(await sealedPassword(t))).toBe(firstPassword);
    expect(existsSync(join(t.installDir, 'var', 'lib', secretKeyFileName))).toBe(false);
  });

  it('stops the start when the configured key is not 32 bytes of base64, without repeating it', async () => {
    const attempt = startFeatureTest({ features: webhookFeatures, config: { 'webserver.conf': { webhooks: { secret_key: 'c2hvcnQta2V5' } } } });
    const error = await attempt.then(
      () => undefined,
      (err: unknown) => err as Error,
    );
    expect(error?.message).toMatch(/secret_key must be the base64 encoding of 32 bytes/);
    expect(error?.message).not.toContain('c2hvcnQta2V5');
  });
});
