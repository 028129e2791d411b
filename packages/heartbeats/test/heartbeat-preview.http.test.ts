// The heartbeat preview: the recent events a heartbeat's pattern matches, and when its alarm would be raised.
import { describe, expect, it } from 'vitest';
import { expectError } from '@vigie/testkit';
import { check, engineTests } from '@vigie/testkit/engines';
import { heartbeatsFeature } from '../src/index.js';

const start = Date.UTC(2025, 0, 1, 12);
const engines = engineTests([heartbeatsFeature], { start });

describe('heartbeat preview', () => {
  it('lists the recent events the pattern matches, the newest match, and when the alarm would be raised', async () => {
    const h = await engines.start();
    await h.send(check(), check({ connector: 'zabbix' }));
    engines.clock.advance(30_000);
    await h.send(check({ resource: 'cpu' }));
    engines.clock.advance(10_000);
    const res = await h.t.post('/api/v2/heartbeat/preview', { pattern: { connector: 'nagios', connector_name: 'nagios-1' }, expected_interval: '1m' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const nowSec = engines.clock.nowSec();
    expect(res.body).toMatchObject({ subject: 'events', count: 2, last_match: nowSec - 10, alarm_at: nowSec + 60 });
    expect((res.body as { data: { event: { resource: string } }[] }).data.map((e) => e.event.resource)).toEqual(['disk', 'cpu']);
    // Nothing stored: the list is empty and the same heartbeat can be created.
    expect((await h.t.get('/api/v2/heartbeat')).body).toEqual([]);
    expect((await h.t.post('/api/v2/heartbeat', { pattern: { connector: 'nagios', connector_name: 'nagios-1' }, expected_interval: '1m' })).status).toBe(200);
  });

  it('validates the body as the create route does', async () => {
    const h = await engines.start();
    await expectError(h.t.post('/api/v2/heartbeat/preview', { pattern: {}, expected_interval: 'soon' }), 400, 'invalid heartbeat payload.');
  });
});
