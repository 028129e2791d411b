import { afterEach, describe, expect, it } from 'vitest';
import { event, startAlarms, startSec, type AlarmsHarness } from './harness.js';

let h: AlarmsHarness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

interface Timeline {
  steps: { _t: string; t: number; m: string }[];
  total: number;
  page: number;
  limit: number;
  folded_steps: number;
}

describe('GET /api/v2/alarms/<id>/steps', () => {
  it('pages the steps, filters them by type, sorts them oldest or newest first', async () => {
    h = await startAlarms();
    await h.send(event({ state: 2 }));
    const [alarm] = await h.alarms();
    for (const [i, action] of ['ack', 'comment', 'comment', 'comment', 'ackremove'].entries()) {
      h.clock.advance(1000);
      const res = await h.t.put(`/api/v2/alarms/${alarm!._id}/${action}`, { comment: `c${i}` });
      expect(res.status).toBe(200);
    }
    const timeline = async (query: string) => {
      const res = await h!.t.get(`/api/v2/alarms/${alarm!._id}/steps?${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body as Timeline;
    };
    const first = await timeline('limit=3');
    expect(first).toMatchObject({ total: 7, page: 1, limit: 3, folded_steps: 0 });
    expect(first.steps.map((s) => s._t)).toEqual(['stateinc', 'statusinc', 'ack']);
    expect((await timeline('limit=3&page=3')).steps.map((s) => s._t)).toEqual(['ackremove']);
    expect((await timeline('limit=3&page=4')).steps).toEqual([]);
    const newest = await timeline('sort=desc&limit=2');
    expect(newest.steps.map((s) => `${s._t} ${s.m} ${s.t - startSec}`)).toEqual(['ackremove c4 5', 'comment c3 4']);
    const comments = await timeline('type=comment,ack&sort=desc');
    expect(comments.total).toBe(4);
    expect(comments.steps.map((s) => s.m)).toEqual(['c3', 'c2', 'c1', 'c0']);
    // Without paging parameters: the first 50, oldest first.
    expect((await timeline('')).steps).toHaveLength(7);
  });

  it('answers 404 for an unknown alarm and 400 naming a bad parameter', async () => {
    h = await startAlarms();
    await h.send(event({ state: 2 }));
    const [alarm] = await h.alarms();
    expect((await h.t.get('/api/v2/alarms/nope/steps')).body).toEqual({ name: 'not_found', description: 'No alarm with id nope' });
    for (const [query, description] of [
      ['page=0', 'page must be at least 1'],
      ['limit=2001', 'limit must be at most 2000'],
      ['sort=up', 'sort must be asc or desc'],
      ['limit=x', 'limit must be an integer'],
      ['limit=1&limit=2', 'limit is given more than once'],
    ]) {
      const res = await h.t.get(`/api/v2/alarms/${alarm!._id}/steps?${query}`);
      expect(res.status).toBe(400);
      expect((res.body as { description: string }).description).toBe(description);
    }
  });

  it('keeps the 2,000-step cap and says how many older steps were folded', async () => {
    h = await startAlarms();
    await h.send(event({ state: 2 }));
    const [alarm] = await h.alarms();
    const comments = (from: number, count: number) => Array.from({ length: count }, (_, i) => ({ _id: alarm!._id, comment: `n${from + i}` }));
    // In bulks of 250: each comment rewrites an alarm of up to 2,000 steps, and one request of 1,000 of them could
    // outlast the server's request timeout on a loaded machine.
    const bulks = [...Array.from({ length: 8 }, (_, i) => [i * 250, 250] as const), [2000, 10] as const];
    for (const [from, count] of bulks) {
      const res = await h.t.put('/api/v2/bulk/alarms/comment', comments(from, count));
      expect(res.status).toBe(207);
      expect((res.body as { status: number }[]).every((item) => item.status === 200)).toBe(true);
    }
    // 2 steps of creation and 2,010 comments: 12 folded, the first step kept.
    const res = await h.t.get(`/api/v2/alarms/${alarm!._id}/steps?limit=2`);
    const timeline = res.body as Timeline;
    expect(timeline).toMatchObject({ total: 2000, folded_steps: 12 });
    expect(timeline.steps.map((s) => `${s._t} ${s.m}`)).toEqual(['stateinc disk full', 'comment n11']);
    const newest = (await h.t.get(`/api/v2/alarms/${alarm!._id}/steps?limit=1&sort=desc`)).body as Timeline;
    expect(newest.steps[0]!.m).toBe('n2009');
    // Generous: 2,010 changes of one alarm, one after the other, on a loaded machine.
  }, 150_000);
});
