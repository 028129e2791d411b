import { afterEach, describe, expect, it } from 'vitest';
import type { ManualClock } from '@vigie/kernel';
import { EventEntities } from '@vigie/context-graph';
import { expectError, type TestKernel } from '@vigie/testkit';
import { check, send, startLive, type Notice } from './harness.js';
import { SseClient } from './sse-client.js';

let t: TestKernel;
let clock: ManualClock;
const clients: SseClient[] = [];

async function open(path: string, options: { lastEventId?: string; paused?: boolean } = {}): Promise<SseClient> {
  const client = await SseClient.open(t.url, path, options);
  clients.push(client);
  return client;
}

const notices = (client: SseClient) => client.messages<Notice>();
const summary = (client: SseClient) => client.messages<{ type: string; alarm: Notice['alarm'] }>().map((n) => `${n.type} ${n.alarm.d} ${(n.alarm.v as { state: { val: number } }).state.val}`);

afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await t?.stop();
});

describe('GET /api/v2/alarms/stream', () => {
  it('pushes creations, changes and resolutions of the selected alarms, each once and in order', async () => {
    ({ t, clock } = await startLive());
    const all = await open('/api/v2/alarms/stream');
    const critical = await open(`/api/v2/alarms/stream?filter=${encodeURIComponent('{"v.state.val":3}')}`);
    expect(all.status).toBe(200);
    expect(all.response.headers['content-type']).toBe('text/event-stream; charset=utf-8');

    await send(t, check({ resource: 'r1', state: 2 }));
    await all.until((c) => notices(c).length === 1, 'the creation');
    expect(summary(all)).toEqual(['create r1/host 2']);
    expect(notices(all)[0]!.alarm.v).not.toHaveProperty('steps');

    await send(t, check({ resource: 'r1', state: 3 }));
    await all.until((c) => notices(c).length === 2, 'the change');
    await critical.until((c) => notices(c).length === 1, 'the change to critical');
    expect(summary(critical)).toEqual(['change r1/host 3']);

    // Back to OK, then resolved by the beat once baggot_time (1 s) has passed on the injected clock.
    await send(t, check({ resource: 'r1', state: 0 }));
    await all.until((c) => notices(c).length === 3, 'the change to OK');
    clock.advance(5000);
    await all.until((c) => notices(c).some((n) => n.type === 'resolve'), 'the resolution');
    expect(summary(all)).toEqual(['create r1/host 2', 'change r1/host 3', 'change r1/host 0', 'resolve r1/host 0']);
    // The filtered stream saw the alarm while it matched, and was told when it stopped matching.
    await critical.until((c) => notices(c).length === 2, 'the alarm leaving the filtered stream');
    expect(summary(critical)).toEqual(['change r1/host 3', 'leave r1/host 0']);
    const ids = all.events.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('searches as the list does, the entity\'s infos included, and follows the infos while it is open', async () => {
    ({ t } = await startLive());
    await send(t, check({ resource: 'r1', state: 2 }), check({ resource: 'r2', state: 2 }), check({ resource: 'r3', state: 2, output: 'GERLAND link down' }));
    // Accepted is not yet processed: the creations must be done before the streams open.
    await expect.poll(async () => ((await t.get('/alerts/get-alarms')).body as { data: { total: number }[] }).data[0]!.total).toBe(3);
    const entities = t.kernel.scope('context-graph').resolve(EventEntities);
    await entities.setInfos('r1/host', { site: { description: 'site', value: 'Lyon-Gerland' } });
    const gerland = await open('/api/v2/alarms/stream?search=gerland');
    const byEntity = await open(`/api/v2/alarms/stream?search=${encodeURIComponent('R2/HOST')}`);
    await send(t, check({ resource: 'r1', state: 3 }), check({ resource: 'r2', state: 3 }), check({ resource: 'r3', state: 3, output: 'GERLAND link down' }));
    await gerland.until((c) => notices(c).length === 2, 'the changes of the alarm whose entity infos match, and of the one whose output does');
    await byEntity.until((c) => notices(c).length === 1, 'the change of the entity searched by its id');
    expect(summary(gerland).sort()).toEqual(['change r1/host 3', 'change r3/host 3']);
    expect(summary(byEntity)).toEqual(['change r2/host 3']);

    // r2's infos now hold the text: with no list read to refresh them, the open stream sees its next changes.
    await entities.setInfos('r2/host', { site: { description: 'site', value: 'gerland-2' } });
    let state = 3;
    await expect
      .poll(async () => {
        await send(t, check({ resource: 'r2', state: (state = state === 3 ? 1 : 3) }));
        return summary(gerland).some((line) => line.includes('r2/host'));
      })
      .toBe(true);
  });

  it('resumes from Last-Event-ID with exactly what was missed, and says reload when it cannot', async () => {
    ({ t, clock } = await startLive({ stream_replay_events: '3' }));
    const first = await open('/api/v2/alarms/stream');
    await send(t, check({ resource: 'a', state: 1 }));
    await first.until((c) => notices(c).length === 1, 'the first creation');
    const seen = first.events.at(-1)!.id!;
    first.close();

    const watcher = await open('/api/v2/alarms/stream');
    await send(t, check({ resource: 'b', state: 1 }), check({ resource: 'c', state: 2 }));
    await watcher.until((c) => notices(c).length === 2, 'the two changes while disconnected');

    const resumed = await open('/api/v2/alarms/stream', { lastEventId: seen });
    await resumed.until((c) => notices(c).length === 2, 'the replay');
    await send(t, check({ resource: 'd', state: 3 }));
    await resumed.until((c) => notices(c).length === 3, 'the next change, live');
    expect(summary(resumed)).toEqual(['create b/host 1', 'create c/host 2', 'create d/host 3']);
    expect(resumed.events.some((e) => e.event === 'reload')).toBe(false);

    // Past the replay window (3 messages): a reload, then the live flow.
    await send(t, check({ resource: 'e', state: 1 }), check({ resource: 'f', state: 1 }));
    await resumed.until((c) => notices(c).length === 5, 'two more');
    const tooOld = await open('/api/v2/alarms/stream', { lastEventId: seen });
    await tooOld.until((c) => c.events.some((e) => e.event === 'reload'), 'the reload');
    expect(JSON.parse(tooOld.events[0]!.data)).toEqual({ type: 'reload', reason: 'the changes since Last-Event-ID are no longer kept' });
    expect(notices(tooOld)).toEqual([]);

    const foreign = await open('/api/v2/alarms/stream', { lastEventId: 'another-node-12' });
    await foreign.until((c) => c.events.some((e) => e.event === 'reload'), 'the reload of an unknown id');
    // Resuming from the reload's id misses nothing after it.
    const fromReload = await open('/api/v2/alarms/stream', { lastEventId: foreign.events[0]!.id! });
    await send(t, check({ resource: 'g', state: 2 }));
    await fromReload.until((c) => notices(c).length === 1, 'the change after the reload');
    expect(summary(fromReload)).toEqual(['create g/host 2']);
    expect(clock).toBeDefined();
  });

  it('drops a reader that does not keep up, and keeps the others', async () => {
    ({ t } = await startLive({ stream_queue_events: '100' }));
    const slow = await open('/api/v2/alarms/stream', { paused: true });
    const reader = await open('/api/v2/alarms/stream');
    const filler = 'x'.repeat(1000);
    // About 10 MB of notices: more than the socket buffers hold, so notices wait for the slow reader.
    const batches = 4;
    const perBatch = 2500;
    for (let b = 0; b < batches; b++) {
      await send(t, ...Array.from({ length: perBatch }, (_, i) => check({ resource: `bulk-${b}-${i}`, state: 2, long_output: filler })));
      // The reader that keeps up reads each batch (2.5 MB, within the socket buffers) before the next is sent: a busy
      // machine that starves this process for a while must not make it a slow reader too.
      await reader.until((c) => notices(c).length === (b + 1) * perBatch, `batch ${b + 1} on the reader that keeps up`, 120_000);
    }
    slow.resume();
    await slow.until((c) => c.ended, 'the slow reader to be disconnected', 30_000);
    expect(notices(slow).length).toBeLessThan(batches * perBatch);
    expect(reader.ended).toBe(false);
  }, 180_000);

  it('sends a heartbeat comment, bounds the open streams, refuses a bad filter, and ends streams when the server stops', async () => {
    ({ t } = await startLive({ stream_heartbeat_ms: '100', stream_max_connections: '2' }));
    const one = await open('/api/v2/alarms/stream');
    await one.until((c) => c.comments >= 2, 'two heartbeats');
    const two = await open('/api/v2/broadcast-message/stream');
    await expectError(t.get('/api/v2/alarms/stream'), 503, 'too many open streams (2); try again later');
    const unsafe = await t.get(`/api/v2/alarms/stream?filter=${encodeURIComponent('{"$where":"1"}')}`);
    expect(unsafe.status).toBe(400);
    expect((unsafe.body as { description: string }).description).toMatch(/^Invalid filter: /);
    two.close();
    await two.until((c) => c.ended, 'the closed stream');
    // The slot of a closed stream is free again.
    const three = await open('/api/v2/alarms/stream');
    await three.until((c) => c.comments >= 1, 'a heartbeat on the third stream');
    const started = Date.now();
    await t.stop();
    expect(Date.now() - started).toBeLessThan(5000);
    await one.until((c) => c.ended, 'the end of the stream at stop');
    await three.until((c) => c.ended, 'the end of the other stream at stop');
  });

  it('needs authentication', async () => {
    ({ t } = await startLive());
    expect((await t.get('/api/v2/alarms/stream', { auth: false })).status).toBe(401);
    expect((await t.get('/api/v2/broadcast-message/stream', { auth: false })).status).toBe(401);
  });
});

describe('GET /api/v2/broadcast-message/stream', () => {
  it('sends the active messages at once, then each time they change or a window ends', async () => {
    ({ t, clock } = await startLive());
    const banner = await open('/api/v2/broadcast-message/stream');
    await banner.until((c) => c.events.length === 1, 'the current list');
    expect(banner.messages()).toEqual([[]]);
    const now = start / 1000;
    const created = await t.post('/api/v2/broadcast-message', { message: 'maintenance tonight', color: '#f00', start: now - 10, end: now + 60 });
    expect(created.status).toBe(200);
    const id = (created.body as { _id: string })._id;
    await banner.until((c) => c.events.length === 2, 'the new message');
    expect(banner.messages()[1]).toEqual([{ _id: id, message: 'maintenance tonight', color: '#f00', start: now - 10, end: now + 60 }]);
    expect((await t.put(`/api/v2/broadcast-message/${id}`, { message: 'maintenance now', color: '#f00', start: now - 10, end: now + 60 })).status).toBe(200);
    await banner.until((c) => c.events.length === 3, 'the changed message');
    expect((banner.messages()[2] as { message: string }[])[0]!.message).toBe('maintenance now');
    clock.advance(120_000);
    await banner.until((c) => c.events.length === 4, 'the end of the window');
    expect(banner.messages()[3]).toEqual([]);
  });
});

const start = Date.UTC(2025, 0, 1, 12);
