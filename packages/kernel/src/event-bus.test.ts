import { describe, expect, it } from 'vitest';
import { EventBus } from './event-bus.js';
import { HealthRegistry } from './health.js';

interface TestEvents {
  'thing.changed': { id: string };
}

describe('EventBus', () => {
  it('calls handlers in subscription order, awaits them, and stops calling unsubscribed ones', async () => {
    const bus = new EventBus<TestEvents>();
    const seen: string[] = [];
    const off = bus.on('thing.changed', async ({ id }) => {
      await new Promise((r) => setTimeout(r, 5));
      seen.push(`first ${id}`);
    });
    bus.on('thing.changed', ({ id }) => void seen.push(`second ${id}`));
    await bus.emit('thing.changed', { id: 'a' });
    off();
    await bus.emit('thing.changed', { id: 'b' });
    expect(seen).toEqual(['first a', 'second a', 'second b']);
    expect(bus.listenerCount('thing.changed')).toBe(1);
  });

  it('runs every handler even when some fail, and reports all failures', async () => {
    const bus = new EventBus<TestEvents>();
    let ran = 0;
    bus.on('thing.changed', () => {
      throw new Error('one');
    });
    bus.on('thing.changed', () => {
      ran += 1;
    });
    bus.on('thing.changed', () => {
      throw new Error('two');
    });
    await expect(bus.emit('thing.changed', { id: 'x' })).rejects.toThrow('2 handlers of "thing.changed" failed');
    expect(ran).toBe(1);
  });
});

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
