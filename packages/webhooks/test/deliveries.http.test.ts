// Webhook deliveries end to end: events enter through POST /api/v2/event, alarms change, webhooks fire at a real
// HTTP target started by the test; outcomes are read through /api/v2/webhook-deliveries and /alerts/get-alarms.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFeatureTest, type TestKernel } from '@vigie/testkit';
import {
  check,
  createWebhook,
  eventually,
  listDeliveries,
  openAlarms,
  sendEvents,
  startTarget,
  webhook,
  webhookFeatures,
  type Delivery,
  type Target,
} from './harness.js';

let t: TestKernel;
let target: Target;

beforeEach(async () => {
  target = await startTarget();
  t = await startFeatureTest({
    features: webhookFeatures,
    config: { 'webserver.conf': { engine: { beat_interval: '1s' }, alarms: { baggot_time: '1s' }, webhooks: { retry_count: 2, retry_delay: 1, retry_unit: 's', request_timeout: '1s' } } },
  });
});

afterEach(async () => {
  await t.stop();
  await target.close();
});

const deliveriesOf = (id: string) => listDeliveries(t, `?webhook=${encodeURIComponent(id)}`);
const finished = (count = 1) => (deliveries: Delivery[]) => deliveries.length >= count && deliveries.every((d) => d.status !== 'pending');

describe('delivery', () => {
  it('sends the rendered request with method, headers, basic auth and an Idempotency-Key, and records the success', async () => {
    const id = await createWebhook(
      t,
      webhook({
        _id: 'notify',
        request: {
          method: 'put',
          url: `${target.url}/alarms/{{ .Alarm.Value.Resource | urlquery }}?state={{ .Alarm.Value.State.Value }}`,
          headers: { 'Content-Type': 'application/json', 'X-Component': '{{ .Alarm.Value.Component }}' },
          payload:
            '{"component":"{{.Alarm.Value.Component}}","trigger":"{{.Event.AlarmChange.Type}}","output":{{.Event.Output | json}},' +
            '"connector":"{{.Alarm.Value.Connector}}/{{.Alarm.Value.ConnectorName}}","entity":"{{.Entity.ID}}","status":{{.Alarm.Value.Status.Value}},' +
            '"since":{{.Alarm.Value.CreationDate.Unix}},"event_time":{{.Event.Timestamp.Unix}}}',
          auth: { username: 'bot', password: 's3cret-Pa55' },
        },
      }),
    );
    await sendEvents(t, check({ resource: 'disk 1', timestamp: 1_700_000_000 }));
    const [delivery] = await eventually(() => deliveriesOf(id), finished());
    expect(delivery).toMatchObject({ webhook: 'notify', trigger: 'create', status: 'succeeded', attempts: [{ status: 200 }] });

    expect(target.received).toHaveLength(1);
    const request = target.received[0]!;
    expect(request.method).toBe('PUT');
    expect(request.url).toBe('/alarms/disk+1?state=2');
    expect(request.headers['x-component']).toBe('host');
    expect(request.headers['idempotency-key']).toBe(delivery!._id);
    expect(request.headers.authorization).toBe(`Basic ${Buffer.from('bot:s3cret-Pa55').toString('base64')}`);
    const [alarm] = await openAlarms(t);
    expect(JSON.parse(request.body)).toEqual({
      component: 'host',
      trigger: 'create',
      output: 'disk full',
      connector: 'nagios/nagios-1',
      entity: 'disk 1/host',
      status: 1,
      since: alarm!.v.creation_date,
      event_time: 1_700_000_000,
    });
    expect(delivery!.alarm).toBe(alarm!._id);

    const listed = await t.get('/api/v2/webhook-deliveries');
    expect(listed.text).not.toContain('s3cret-Pa55');
    expect(listed.text).not.toContain(Buffer.from('bot:s3cret-Pa55').toString('base64'));
  });

  it('fires only on its triggers and when all its pattern lists match', async () => {
    const id = await createWebhook(
      t,
      webhook({
        hook: {
          triggers: ['stateinc'],
          event_patterns: [{ connector: 'nagios' }],
          entity_patterns: [{ type: 'resource' }],
          alarm_patterns: [{ v: { state: { val: 3 } } }],
        },
        request: { url: `${target.url}/critical` },
      }),
    );
    await sendEvents(t, check({ state: 1 }), check({ state: 2 }), check({ resource: 'cpu', connector: 'zabbix', state: 1 }), check({ resource: 'cpu', connector: 'zabbix', state: 3 }));
    await sendEvents(t, check({ state: 3 }));
    const [delivery, ...others] = await eventually(() => deliveriesOf(id), finished());
    expect(others).toEqual([]);
    expect(delivery).toMatchObject({ trigger: 'stateinc', status: 'succeeded' });
    expect(target.received.map((r) => r.url)).toEqual(['/critical']);
  });

  it('retries after a 500 with the same Idempotency-Key', async () => {
    const id = await createWebhook(t, webhook({ request: { url: `${target.url}/x` } }));
    target.answer({ status: 500, body: 'down for maintenance' }, { status: 201 });
    await sendEvents(t, check());
    const [delivery] = await eventually(() => deliveriesOf(id), finished());
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: [{ status: 500, error: 'HTTP 500: down for maintenance' }, { status: 201 }] });
    expect(target.received.map((r) => r.headers['idempotency-key'])).toEqual([delivery!._id, delivery!._id]);
    expect(delivery!.attempts[1]!.t - delivery!.attempts[0]!.t).toBeGreaterThanOrEqual(0);
  });

  it('sends a retry whose job comes while a dead attempt still owns the delivery, once that ownership ends', async () => {
    const id = await createWebhook(t, webhook({ retry: { count: 2, delay: 5, unit: 's' }, request: { url: `${target.url}/x` } }));
    target.answer({ status: 500 }, { status: 200 });
    await sendEvents(t, check());
    const [pending] = await eventually(() => deliveriesOf(id), (d) => d[0]?.attempts.length === 1);
    // What a node killed during an attempt leaves: the delivery owned until its lease ends, by nobody alive. The job
    // of another node (here the retry's) comes before that end.
    const leaseEndMs = Date.now() + 7_000;
    // Only while the retry has not been sent (it is due 5 s after the first attempt): else there is nothing to test.
    const leased = await t.kernel.store.collection('webhook_deliveries').updateOne({ _id: pending!._id, attempts: { $size: 1 } }, { $set: { lease_until: leaseEndMs } });
    expect(leased.matchedCount, 'the lease set before the retry came').toBe(1);
    const [delivery] = await eventually(() => deliveriesOf(id), finished(), 'the retry sent once the lease has ended');
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: [{ status: 500 }, { status: 200 }] });
    expect(delivery!.attempts[1]!.t).toBeGreaterThanOrEqual(Math.floor(leaseEndMs / 1000));
  });

  it('counts an answer slower than request_timeout as a failed attempt, then retries', async () => {
    const id = await createWebhook(t, webhook({ request: { url: `${target.url}/slow` } }));
    target.answer({ delayMs: 2500 }, {});
    await sendEvents(t, check());
    const [delivery] = await eventually(() => deliveriesOf(id), finished());
    expect(delivery!.status).toBe('succeeded');
    expect(delivery!.attempts).toHaveLength(2);
    expect(delivery!.attempts[0]!.status).toBeUndefined();
    expect(delivery!.attempts[0]!.error).toMatch(/timeout/);
  });

  it('keeps a delivery whose retries are exhausted as failed, and replays it with the same Idempotency-Key', async () => {
    const id = await createWebhook(t, webhook({ retry: { count: 1, delay: 1, unit: 's' }, request: { url: `${target.url}/flaky` } }));
    target.answer({ status: 503, body: '' });
    await sendEvents(t, check());
    const [failed] = await eventually(() => listDeliveries(t, `?webhook=${id}&status=failed`), (d) => d.length === 1);
    expect(failed).toMatchObject({ status: 'failed', reason: 'HTTP 503', attempts: [{ status: 503 }, { status: 503 }] });
    expect(await listDeliveries(t, `?webhook=${id}&status=succeeded`)).toEqual([]);

    target.answer({ status: 200 });
    const replay = await t.post(`/api/v2/webhook-deliveries/${failed!._id}/replay`);
    expect(replay.status, replay.text).toBe(200);
    expect(replay.body).toMatchObject({ _id: failed!._id, status: 'pending' });
    const [replayed] = await eventually(() => deliveriesOf(id), finished());
    expect(replayed).toMatchObject({ _id: failed!._id, status: 'succeeded', attempts: [{ status: 503 }, { status: 503 }, { status: 200 }] });
    expect(new Set(target.received.map((r) => r.headers['idempotency-key']))).toEqual(new Set([failed!._id]));

    const again = await t.post(`/api/v2/webhook-deliveries/${failed!._id}/replay`);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ description: `only a failed delivery can be replayed; delivery ${failed!._id} is succeeded` });
    expect((await t.post('/api/v2/webhook-deliveries/nope/replay')).body).toMatchObject({ description: 'No webhook delivery with id nope' });
  });

  it('filters by webhook, alarm and status, and paginates', async () => {
    const a = await createWebhook(t, webhook({ _id: 'a', hook: { triggers: ['create', 'stateinc'] }, request: { url: `${target.url}/a` } }));
    await createWebhook(t, webhook({ _id: 'b', request: { url: `${target.url}/b` } }));
    await sendEvents(t, check(), check({ resource: 'cpu' }));
    await sendEvents(t, check({ state: 3 }));
    const all = await eventually(() => listDeliveries(t), finished(5));
    expect(all).toHaveLength(5);
    const alarms = await openAlarms(t);
    const disk = alarms.find((alarm) => alarm.d === 'disk/host')!;
    expect((await listDeliveries(t, `?webhook=${a}&alarm=${disk._id}`)).map((d) => d.trigger).sort()).toEqual(['create', 'stateinc']);
    const page = await t.get('/api/v2/webhook-deliveries?limit=2&skip=1');
    expect(page.body).toMatchObject({ total_count: 5, count: 2 });
    expect((await t.get('/api/v2/webhook-deliveries?status=lost')).body).toMatchObject({ description: 'status must be one of pending, succeeded, failed, skipped' });
    expect((await t.get('/api/v2/webhook-deliveries?limit=0')).status).toBe(400);
    expect((await t.get('/api/v2/webhook-deliveries', { auth: false })).status).toBe(401);
  });

  it('fires on triggers of the alarm beat (resolve), with the event built from the alarm and the stored entity', async () => {
    const id = await createWebhook(
      t,
      webhook({
        hook: { triggers: ['resolve'], entity_patterns: [{ type: 'resource' }] },
        request: { url: `${target.url}/resolved`, payload: '{{.Event.AlarmChange.Type}} {{.Event.EventType}} {{.Entity.ID}} {{.Alarm.Value.Resolved.Unix}}' },
      }),
    );
    await sendEvents(t, check());
    await sendEvents(t, check({ state: 0 }));
    const [delivery] = await eventually(() => deliveriesOf(id), finished());
    expect(delivery).toMatchObject({ trigger: 'resolve', status: 'succeeded' });
    expect(target.received[0]!.body).toMatch(/^resolve resolve disk\/host \d{10}$/);
  });

  it('skips entities under an active pbehavior when disable_if_active_pbehavior is set', async () => {
    const paused = await createWebhook(t, webhook({ _id: 'paused', disable_if_active_pbehavior: true, request: { url: `${target.url}/paused` } }));
    const always = await createWebhook(t, webhook({ _id: 'always', request: { url: `${target.url}/always` } }));
    await sendEvents(t, check({ state: 0 }));
    const now = Math.floor(Date.now() / 1000);
    const pbh = await t.post('/api/v2/pbehavior', {
      name: 'maintenance',
      author: 'root',
      filter: { _id: 'disk/host' },
      tstart: now - 60,
      tstop: now + 3600,
      type_: 'Maintenance',
      reason: 'Autre',
    });
    expect(pbh.status, pbh.text).toBe(200);
    await sendEvents(t, check());
    await eventually(() => deliveriesOf(always), finished());
    expect(await deliveriesOf(paused)).toEqual([]);
  });
});

describe('declare_ticket', () => {
  const ticketTarget = (path: string) => ({ url: `${target.url}/${path}` });

  it('stores ticket_id and the other keys from the answer on the alarm, with a declareticket step and the declareticketwebhook trigger', async () => {
    await createWebhook(t, webhook({ _id: 'ticket', request: ticketTarget('tickets'), declare_ticket: { ticket_id: 'result.number', queue: 'result.queue', priority: 'prio' } }));
    const follower = await createWebhook(t, webhook({ _id: 'follower', hook: { triggers: ['declareticketwebhook'] }, request: { url: `${target.url}/follow`, payload: '{{ .Alarm.Value.Ticket.Value }} {{ .Event.AlarmChange.Type }}' } }));
    target.answer((request) => (request.url === '/tickets' ? { body: { result: { number: 'INC-1', queue: 'ops' }, prio: 2 } } : {}));
    await sendEvents(t, check());
    const [followed] = await eventually(() => deliveriesOf(follower), finished());
    expect(followed!.trigger).toBe('declareticketwebhook');
    expect(target.received.find((r) => r.url === '/follow')!.body).toBe('INC-1 declareticketwebhook');
    const [alarm] = await openAlarms(t);
    expect(alarm!.v.ticket).toMatchObject({ _t: 'declareticket', val: 'INC-1', data: { queue: 'ops', priority: '2' } });
    expect(alarm!.v.steps.filter((step: { _t: string }) => step._t === 'declareticket')).toHaveLength(1);
    const [declaring] = await deliveriesOf('ticket');
    expect(declaring).toMatchObject({ status: 'succeeded', ticket: 'INC-1' });
  });

  it('reads the fields through regular expressions with regexp: true', async () => {
    await createWebhook(t, webhook({ _id: 'rx', request: ticketTarget('rx'), declare_ticket: { ticket_id: '^sys_id$|number$', regexp: true, team: 'assign.*group' } }));
    target.answer({ body: { result: [{ number: 'CHG-7', assignment_group: 'network' }] } });
    await sendEvents(t, check());
    await eventually(() => deliveriesOf('rx'), finished());
    const [alarm] = await openAlarms(t);
    expect(alarm!.v.ticket).toMatchObject({ val: 'CHG-7', data: { team: 'network' } });
  });

  it('declares N/A with empty_response: true, whatever the answer', async () => {
    await createWebhook(t, webhook({ _id: 'empty', request: ticketTarget('empty'), declare_ticket: { empty_response: true, ticket_id: 'id', other: 'x' } }));
    target.answer({ status: 204, body: '' });
    await sendEvents(t, check());
    await eventually(() => deliveriesOf('empty'), finished());
    const [alarm] = await openAlarms(t);
    expect(alarm!.v.ticket).toMatchObject({ val: 'N/A' });
    expect(alarm!.v.ticket.data).toBeUndefined();
  });

  it('fails the delivery, declaring nothing, when the answer lacks ticket_id', async () => {
    await createWebhook(t, webhook({ _id: 'missing', request: ticketTarget('missing'), declare_ticket: { ticket_id: 'result.number' } }));
    target.answer({ body: { result: {} } });
    await sendEvents(t, check());
    const [delivery] = await eventually(() => deliveriesOf('missing'), finished());
    expect(delivery).toMatchObject({ status: 'failed', reason: 'the answer has no field "result.number" (declare_ticket.ticket_id)' });
    const [alarm] = await openAlarms(t);
    expect(alarm!.v.ticket).toBeUndefined();
  });

  it('declares one ticket per alarm and webhook, whatever the triggers, retries and loops', async () => {
    await createWebhook(
      t,
      webhook({ _id: 'once', hook: { triggers: ['create', 'stateinc', 'declareticketwebhook', 'comment'] }, request: ticketTarget('once'), declare_ticket: { ticket_id: 'id' } }),
    );
    let created = 0;
    target.answer({ status: 500 }, () => ({ body: { id: `T-${++created}` } }));
    // create and stateinc fire together (two events), then more triggers while the first delivery is retried.
    await sendEvents(t, check({ state: 1 }), check({ state: 2 }), check({ state: 3 }));
    await sendEvents(t, { ...check(), event_type: 'comment', author: 'root', output: 'look' });
    const deliveries = await eventually(() => deliveriesOf('once'), (d) => d.some((x) => x.status === 'succeeded') && d.every((x) => x.status !== 'pending'));
    expect(created).toBe(1);
    const succeeded = deliveries.filter((d) => d.status === 'succeeded');
    expect(succeeded).toHaveLength(1);
    expect(deliveries.filter((d) => d.status !== 'succeeded').every((d) => d.status === 'skipped' && d.attempts.length === 0)).toBe(true);
    // Later triggers of the alarm do not even record a delivery: the ticket is declared.
    await sendEvents(t, { ...check(), event_type: 'comment', author: 'root', output: 'again' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await deliveriesOf('once')).length).toBe(deliveries.length);
    const [alarm] = await openAlarms(t);
    expect(alarm!.v.ticket).toMatchObject({ val: 'T-1' });
    expect(alarm!.v.steps.filter((step: { _t: string }) => step._t === 'declareticket')).toHaveLength(1);
  });
});

describe('declare_ticket failures', () => {
  it('keeps the claim of a failed ticket delivery: later triggers wait, the replay declares the ticket', async () => {
    await createWebhook(
      t,
      webhook({ _id: 'retry-me', hook: { triggers: ['create', 'comment'] }, retry: { count: 0 }, request: { url: `${target.url}/t` }, declare_ticket: { ticket_id: 'id' } }),
    );
    target.answer({ status: 502 });
    await sendEvents(t, check());
    const [failed] = await eventually(() => deliveriesOf('retry-me'), finished());
    expect(failed).toMatchObject({ status: 'failed', attempts: [{ status: 502 }] });
    await sendEvents(t, { ...check(), event_type: 'comment', author: 'root', output: 'still there?' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await deliveriesOf('retry-me')).toHaveLength(1);

    target.answer({ body: { id: 'INC-77' } });
    expect((await t.post(`/api/v2/webhook-deliveries/${failed!._id}/replay`)).status).toBe(200);
    const [replayed] = await eventually(() => deliveriesOf('retry-me'), finished());
    expect(replayed).toMatchObject({ status: 'succeeded', ticket: 'INC-77' });
    const [alarm] = await openAlarms(t);
    expect(alarm!.v.ticket).toMatchObject({ val: 'INC-77' });
    expect(target.received).toHaveLength(2);
  });
});

describe('retention', () => {
  it('deletes finished deliveries older than delivery_retention', async () => {
    await t.stop();
    const installDir = mkdtempSync(join(tmpdir(), 'vigie-webhooks-retention-'));
    try {
      // The purge runs at start, then hourly.
      const restart = async (retention: string) => {
        await t.stop();
        t = await startFeatureTest({ features: webhookFeatures, installDir, config: { 'webserver.conf': { webhooks: { delivery_retention: retention } } } });
      };
      t = await startFeatureTest({ features: webhookFeatures, installDir });
      const id = await createWebhook(t, webhook({ request: { url: `${target.url}/kept` } }));
      await sendEvents(t, check());
      await eventually(() => deliveriesOf(id), finished());
      await new Promise((resolve) => setTimeout(resolve, 1100));
      await restart('60s');
      expect(await deliveriesOf(id)).toHaveLength(1);
      await restart('1s');
      await eventually(() => deliveriesOf(id), (d) => d.length === 0, 'the deliveries to be purged');
    } finally {
      rmSync(installDir, { recursive: true, force: true });
    }
  });
});

describe('configuration', () => {
  it('refuses an invalid [webhooks] retry unit at start', async () => {
    await expect(startFeatureTest({ features: webhookFeatures, config: { 'webserver.conf': { webhooks: { retry_unit: 'd' } } } })).rejects.toThrow(/retry_unit must be one of s, m, h/);
  });
});
