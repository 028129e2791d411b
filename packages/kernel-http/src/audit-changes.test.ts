import { describe, expect, it } from 'vitest';
import { AuditChangeLog, maskSecrets, openChangeLog } from './audit-changes.js';

describe('maskSecrets', () => {
  it('masks secret-looking keys at any depth, keeps the rest and empty secrets, and keeps numbers JSON cannot hold as text', () => {
    const body = {
      name: 'hook',
      request: { url: 'https://x', auth: { username: 'u', password: 'p' }, headers: { Authorization: 'Bearer t' } },
      list: [{ api_key: 'k', token: 't', secret: '' }],
      bind_password: 'b',
      huge: Number.POSITIVE_INFINITY,
      key: 'k',
      keys: ['a'],
    };
    expect(maskSecrets(body)).toEqual({
      name: 'hook',
      request: { url: 'https://x', auth: '********', headers: { Authorization: '********' } },
      list: [{ api_key: '********', token: '********', secret: '' }],
      bind_password: '********',
      huge: 'Infinity',
      key: '********',
      keys: ['a'],
    });
  });
});

describe('AuditChangeLog.run', () => {
  const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

  it('gives each audited request its own log across awaits, until the last one ends', async () => {
    const first = new AuditChangeLog();
    const second = new AuditChangeLog();
    let releaseFirst!: () => void;
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    let lateWrite: Promise<AuditChangeLog | undefined> | undefined;
    const running = first.run(async () => {
      await tick();
      openChangeLog()?.add('c', 'a', null, { n: 1 });
      // Work the request started but did not wait for: it ends after every audited request.
      lateWrite = (async () => {
        await secondDone;
        await tick();
        return openChangeLog();
      })();
      await firstHeld;
    });
    const secondDone = second.run(async () => {
      await tick();
      releaseFirst();
      await running;
      // The first request has ended: the second still records.
      await tick();
      openChangeLog()?.add('c', 'b', null, { n: 2 });
    });
    await secondDone;
    expect(first.changes.map((c) => c.id)).toEqual(['a']);
    expect(second.changes.map((c) => c.id)).toEqual(['b']);
    expect(openChangeLog()).toBeUndefined();
    expect(await lateWrite).toBeUndefined();
  });

  it('ends the recording when the work fails', async () => {
    const log = new AuditChangeLog();
    await expect(log.run(() => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(openChangeLog()).toBeUndefined();
  });
});
