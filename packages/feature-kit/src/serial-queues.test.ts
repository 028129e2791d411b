import { describe, expect, it } from 'vitest';
import { SerialQueues } from './serial-queues.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('SerialQueues', () => {
  it('runs the work of one key in call order, other keys alongside, and forgets idle keys', async () => {
    const queues = new SerialQueues();
    const log: string[] = [];
    const step = (name: string, fail = false) => async () => {
      log.push(`${name} start`);
      await tick();
      log.push(`${name} end`);
      if (fail) throw new Error(name);
      return name;
    };
    const a1 = queues.run('a', step('a1', true));
    const a2 = queues.run('a', step('a2'));
    const b1 = queues.run('b', step('b1'));
    expect(queues.size).toBe(2);
    await expect(a1).rejects.toThrow('a1');
    expect(await a2).toBe('a2');
    expect(await b1).toBe('b1');
    // a2 started only after a1 ended (even though a1 failed); b1 ran alongside a1.
    expect(log.indexOf('a2 start')).toBeGreaterThan(log.indexOf('a1 end'));
    expect(log.indexOf('b1 start')).toBeLessThan(log.indexOf('a1 end'));
    await tick();
    expect(queues.size).toBe(0);
  });
});
