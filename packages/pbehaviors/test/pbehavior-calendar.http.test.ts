// The maintenance calendar (GET /api/v2/pbehavior-timespans) and the pbehavior preview (POST /api/v2/pbehavior/preview).
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@vigie/kernel-testing';
import { expectError, startFeatureTest, type TestKernel } from '@vigie/testkit';
import { alarmsFeature } from '@vigie/alarms';
import { contextGraphFeature } from '@vigie/context-graph';
import { eventsFeature } from '@vigie/events';
import { pbehaviorsFeature } from '../src/index.js';

let t: TestKernel;
afterEach(() => t.stop());

const entity = (id: string, extra: Record<string, unknown> = {}) => ({ _id: id, name: id, type: 'resource', enabled: true, impact: [], depends: [], infos: {}, ...extra });

async function begin(now: string, config: Record<string, string> = {}) {
  const clock = new ManualClock(Date.parse(now));
  t = await startFeatureTest({ features: [eventsFeature, contextGraphFeature, alarmsFeature, pbehaviorsFeature], clock, config: { 'webserver.conf': { pbehaviors: config } } });
  await t.kernel.store.collection('default_entities').insertMany([entity('disk/a', { infos: { dc: 'paris' } }), entity('cpu/a', { infos: { dc: 'paris' } }), entity('disk/b', { infos: { dc: 'lyon' } })]);
  return clock;
}

const sec = (iso: string) => Date.parse(iso) / 1000;

async function pbehavior(body: Record<string, unknown>): Promise<string> {
  const res = await t.post('/api/v2/pbehavior', { author: 'ops', filter: { _id: 'disk/a' }, timezone: 'Europe/Paris', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as string;
}

interface Calendar {
  count: number;
  timezone: string;
  timespans: { pbehavior: { _id: string }; start: number; end: number; start_local: string; end_local: string; active: boolean }[];
}

async function calendar(query: Record<string, string | number>): Promise<Calendar> {
  const res = await t.get(`/api/v2/pbehavior-timespans?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString()}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as Calendar;
}

describe('pbehavior timespans', () => {
  it('keeps local times across a DST change, drops exdates, and marks the occurrence in force', async () => {
    await begin('2025-03-29T00:30:00Z');
    // 01:00 to 03:00 in Paris every day; the occurrence of 31 March is excluded.
    await pbehavior({ _id: 'nightly', name: 'nightly', tstart: sec('2025-03-20T00:00:00Z'), tstop: sec('2025-03-20T02:00:00Z'), rrule: 'FREQ=DAILY', exdate: [sec('2025-03-30T23:00:00Z')] });
    const answer = await calendar({ from: sec('2025-03-28T12:00:00Z'), to: sec('2025-04-01T12:00:00Z'), timezone: 'Europe/Paris' });
    expect(answer.timespans.map((s) => [s.start_local, s.end_local, s.active])).toEqual([
      ['2025-03-29T01:00:00+01:00', '2025-03-29T03:00:00+01:00', true],
      ['2025-03-30T01:00:00+01:00', '2025-03-30T04:00:00+02:00', false],
      ['2025-04-01T01:00:00+02:00', '2025-04-01T03:00:00+02:00', false],
    ]);
    // The same instants written in another zone.
    const utc = await calendar({ from: sec('2025-03-28T12:00:00Z'), to: sec('2025-04-01T12:00:00Z'), timezone: 'UTC' });
    expect(utc.timespans.map((s) => s.start_local)).toEqual(['2025-03-29T00:00:00+00:00', '2025-03-30T00:00:00+00:00', '2025-03-31T23:00:00+00:00']);
  });

  it('expands a weekly rule over a window that crosses a year, for an entity or a filter', async () => {
    await begin('2025-12-01T00:00:00Z');
    await pbehavior({ _id: 'wednesdays', name: 'wednesdays', tstart: sec('2025-12-03T08:00:00Z'), tstop: sec('2025-12-03T09:00:00Z'), rrule: 'FREQ=WEEKLY;BYDAY=WE' });
    await pbehavior({ _id: 'lyon', name: 'lyon', filter: { 'infos.dc': 'lyon' }, tstart: sec('2026-01-02T00:00:00Z'), tstop: sec('2026-01-02T01:00:00Z') });
    const window = { from: sec('2025-12-28T00:00:00Z'), to: sec('2026-01-10T00:00:00Z'), timezone: 'UTC' };
    const all = await calendar(window);
    expect(all.timespans.map((s) => [s.pbehavior._id, s.start_local])).toEqual([
      ['wednesdays', '2025-12-31T08:00:00+00:00'],
      ['lyon', '2026-01-02T00:00:00+00:00'],
      ['wednesdays', '2026-01-07T08:00:00+00:00'],
    ]);
    expect((await calendar({ ...window, entity: 'disk/b' })).timespans.map((s) => s.pbehavior._id)).toEqual(['lyon']);
    expect((await calendar({ ...window, filter: JSON.stringify({ 'infos.dc': 'paris' }) })).timespans.map((s) => s.pbehavior._id)).toEqual(['wednesdays', 'wednesdays']);
  });

  it('counts every occurrence and answers them a page at a time, in order of start then pbehavior, sharing timings', async () => {
    const clock = await begin('2025-06-02T10:30:00Z');
    // Two pbehaviors with the same timing (expanded once) and one a day later; all daily at 10:00 UTC for an hour.
    const daily = { tstart: sec('2025-06-01T10:00:00Z'), tstop: sec('2025-06-01T11:00:00Z'), rrule: 'FREQ=DAILY', timezone: 'UTC' };
    await pbehavior({ _id: 'b', name: 'b', ...daily });
    await pbehavior({ _id: 'a', name: 'a', ...daily });
    await pbehavior({ _id: 'c', name: 'c', ...daily, tstart: daily.tstart + 86400, tstop: daily.tstop + 86400 });
    const window = { from: sec('2025-06-01T00:00:00Z'), to: sec('2025-06-04T00:00:00Z'), timezone: 'UTC' };
    const whole = await calendar(window);
    const order = [
      ['a', '2025-06-01T10:00:00+00:00'], ['b', '2025-06-01T10:00:00+00:00'],
      ['a', '2025-06-02T10:00:00+00:00'], ['b', '2025-06-02T10:00:00+00:00'], ['c', '2025-06-02T10:00:00+00:00'],
      ['a', '2025-06-03T10:00:00+00:00'], ['b', '2025-06-03T10:00:00+00:00'], ['c', '2025-06-03T10:00:00+00:00'],
    ];
    expect(whole).toMatchObject({ count: 8, page: 1, limit: 1000 });
    expect(whole.timespans.map((s) => [s.pbehavior._id, s.start_local])).toEqual(order);
    expect(whole.timespans.filter((s) => s.active).map((s) => s.pbehavior._id)).toEqual(['a', 'b', 'c']);
    const pages = await Promise.all([1, 2, 3, 4].map((page) => calendar({ ...window, limit: 3, page })));
    expect(pages.map((p) => p.count)).toEqual([8, 8, 8, 8]);
    expect(pages.flatMap((p) => p.timespans.map((s) => [s.pbehavior._id, s.start_local]))).toEqual(order);
    expect(pages[3]?.timespans).toEqual([]);
    // Past the occurrence in force, none is marked active.
    clock.set(Date.parse('2025-06-02T12:00:00Z'));
    expect((await calendar(window)).timespans.some((s) => s.active)).toBe(false);
    await expectError(t.get(`/api/v2/pbehavior-timespans?from=${window.from}&to=${window.to}&limit=0`), 400, 'limit must be an integer from 1 to 10000');
    await expectError(t.get(`/api/v2/pbehavior-timespans?from=${window.from}&to=${window.to}&limit=10001`), 400, 'limit must be an integer from 1 to 10000');
    await expectError(t.get(`/api/v2/pbehavior-timespans?from=${window.from}&to=${window.to}&page=0`), 400, 'page must be an integer from 1');
  });

  it('refuses a bad window, zone or filter, and a window holding too many timespans', async () => {
    await begin('2025-01-01T00:00:00Z', { max_timespans: '5' });
    await pbehavior({ name: 'hourly', tstart: sec('2025-01-01T00:00:00Z'), tstop: sec('2025-01-01T00:10:00Z'), rrule: 'FREQ=HOURLY' });
    const from = sec('2025-01-01T00:00:00Z');
    await expectError(t.get(`/api/v2/pbehavior-timespans?from=${from}&to=${from}`), 400, 'to must be after from, at most 400 days later');
    await expectError(t.get(`/api/v2/pbehavior-timespans?from=${from}`), 400, 'to is required');
    await expectError(t.get(`/api/v2/pbehavior-timespans?from=${from}&to=${from + 3600}&timezone=Mars/Olympus`), 400, 'timezone Mars/Olympus is not an IANA time zone such as Europe/Paris or UTC');
    await expectError(t.get(`/api/v2/pbehavior-timespans?from=${from}&to=${from + 3600}&filter=${encodeURIComponent('{"$where":"1"}')}`), 400, /^Invalid filter: /);
    await expectError(t.get(`/api/v2/pbehavior-timespans?from=${from}&to=${from + 86400}`), 400, 'the window holds more than 5 timespans: narrow the window or the selection');
  });
});

describe('pbehavior preview', () => {
  it('selects the entities the created pbehavior then holds in eids, with its next occurrences', async () => {
    await begin('2025-06-02T10:30:00Z');
    const body = { name: 'paris', filter: { 'infos.dc': 'paris' }, tstart: sec('2025-06-02T10:00:00Z'), tstop: sec('2025-06-02T11:00:00Z'), rrule: 'FREQ=DAILY;COUNT=3', author: 'ops', timezone: 'UTC' };
    const res = await t.post('/api/v2/pbehavior/preview', body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      subject: 'entities',
      count: 2,
      scanned: 3,
      enabled: true,
      active_now: true,
      data: [{ _id: 'cpu/a' }, { _id: 'disk/a' }],
      next_occurrences: [
        { start: sec('2025-06-02T10:00:00Z'), end: sec('2025-06-02T11:00:00Z') },
        { start: sec('2025-06-03T10:00:00Z'), end: sec('2025-06-03T11:00:00Z') },
        { start: sec('2025-06-04T10:00:00Z'), end: sec('2025-06-04T11:00:00Z') },
      ],
    });
    expect((await t.get('/api/v2/pbehavior')).body).toEqual([]);
    const id = await pbehavior(body);
    const stored = (await t.get('/api/v2/pbehavior')).body as { _id: string; eids: string[] }[];
    expect(stored.find((p) => p._id === id)!.eids.sort()).toEqual((res.body as { data: { _id: string }[] }).data.map((e) => e._id));
  });

  it('validates the body as the create route does', async () => {
    await begin('2025-06-02T10:30:00Z');
    await expectError(t.post('/api/v2/pbehavior/preview', { name: 'x' }), 400, 'The fields name, filter, author, tstart, tstop are required.');
    await expectError(t.post('/api/v2/pbehavior/preview', { name: 'x', author: 'a', filter: {}, tstart: 10, tstop: 5 }), 400, 'tstop cannot be inferior or equal to tstart');
  });
});
