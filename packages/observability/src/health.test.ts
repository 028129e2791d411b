import { describe, expect, it } from 'vitest';
import { HealthRegistry } from './health.js';

describe('HealthRegistry', () => {
  it('runs checks, turns exceptions and timeouts into failures, and refuses duplicate names', async () => {
    const health = new HealthRegistry();
    health.register({ name: 'ok', check: async () => ({ ok: true, message: '' }) });
    health.register({ name: 'broken', check: async () => Promise.reject(new Error('disk on fire')) });
    health.register({ name: 'hung', timeoutMs: 20, check: () => new Promise(() => undefined) });
    expect(() => health.register({ name: 'ok', check: async () => ({ ok: true, message: '' }) })).toThrow('registered twice');
    expect(await health.runAll()).toEqual({
      ok: { ok: true, message: '' },
      broken: { ok: false, message: 'disk on fire' },
      hung: { ok: false, message: 'hung check timed out after 20 ms' },
    });
    expect(await health.run('missing')).toEqual({ ok: false, message: 'no health check named missing' });
  });
});
