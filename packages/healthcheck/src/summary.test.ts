import { describe, expect, it } from 'vitest';
import { ManualClock } from '@vigie/kernel';
import { HealthRegistry, type HealthResult } from '@vigie/observability';
import { HealthSummaryService, parseCriticals, serviceIds, serviceOf } from './summary.js';

describe('serviceOf', () => {
  it('reads the service from the prefix of the check name, and counts other components as engines', () => {
    expect(serviceOf('amqp.broker')).toBe('amqp');
    expect(serviceOf('time_series.influx')).toBe('time_series');
    expect(serviceOf('cache')).toBe('cache');
    expect(serviceOf('idle-rules')).toBe('engines');
    expect(serviceOf('amqpish.thing')).toBe('engines');
  });
});

describe('parseCriticals', () => {
  it('keeps known names only, whatever their case and spacing', () => {
    expect([...parseCriticals(' Amqp ,bogus,,timeseries,database')]).toEqual(['amqp', 'time_series', 'database']);
    expect(parseCriticals('').size).toBe(0);
  });
});

describe('HealthSummaryService', () => {
  it('shares one run of the checks between requests that arrive while it runs', async () => {
    const registry = new HealthRegistry();
    let runs = 0;
    let release: (result: HealthResult) => void = () => undefined;
    registry.register({
      name: 'amqp.gated',
      check: () => {
        runs += 1;
        return new Promise((resolve) => (release = resolve));
      },
    });
    const service = new HealthSummaryService(registry, new ManualClock(0));
    const first = service.summary(new Set(serviceIds));
    const second = service.summary(new Set(['database']));
    release({ ok: false, message: 'broker gone' });
    expect(await first).toMatchObject({ amqp: 'broker gone', overall: false });
    expect(await second).toMatchObject({ amqp: 'broker gone', overall: true });
    expect(runs).toBe(1);
    // Once answered, the next request runs the checks again.
    const third = service.summary(new Set(serviceIds));
    release({ ok: true, message: '' });
    expect(await third).toMatchObject({ amqp: '', overall: true });
    expect(runs).toBe(2);
  });
});
