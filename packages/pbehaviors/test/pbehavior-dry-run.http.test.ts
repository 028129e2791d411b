// The pbehaviors stage in an event dry run: the pbehavior a new alarm would enter, said and not done; the real run of
// the same event then puts the alarm in exactly that one.
import { describe, expect, it } from 'vitest';
import { check, engineTests } from '@vigie/testkit/engines';

const start = Date.UTC(2025, 0, 1, 12);
const t0 = start / 1000;
const engines = engineTests([], { start });

interface Report {
  stages: { stage: string; simulated: boolean; would: { what: string; details?: { pbehavior_info?: { id: string } } }[] }[];
}

const stageOf = (report: Report) => report.stages.find((s) => s.stage === 'pbehaviors');

describe('pbehaviors in a dry run', () => {
  it('names the pbehavior a new alarm would enter; the real run puts the alarm in it', async () => {
    const h = await engines.start();
    // An ok check makes the entity without an alarm, so that the pbehavior's eids hold it.
    await h.send(check({ state: 0 }));
    const quiet = (await h.t.post('/api/v2/event/dry-run', check())).body as Report;
    expect(stageOf(quiet)).toEqual({ stage: 'pbehaviors', simulated: true, would: [{ what: 'leave the new alarm out of any pbehavior: none is active on its entity' }] });
    const created = await h.t.post('/api/v2/pbehavior', { name: 'works', filter: { _id: 'disk/host' }, type_: 'Maintenance', reason: 'upgrade', timezone: 'UTC', tstart: t0 - 60, tstop: t0 + 3600 });
    expect(created.status, created.text).toBe(200);
    const report = (await h.t.post('/api/v2/event/dry-run', check())).body as Report;
    const would = stageOf(report)!.would;
    expect(would.map((w) => w.what)).toEqual([`put the new alarm in pbehavior ${created.body as string}`]);
    expect(await h.alarms()).toEqual([]);
    await h.send(check());
    const [alarm] = await h.eventually((found) => found[0]?.v.pbehavior_info !== undefined);
    expect(alarm!.v.pbehavior_info).toMatchObject(would[0]!.details!.pbehavior_info!);
  });
});
