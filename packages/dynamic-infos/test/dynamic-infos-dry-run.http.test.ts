// The dynamic-infos stage in an event dry run: the infos the rules would set on the changed alarm, said and not
// stored; the real run of the same event then sets exactly those.
import { describe, expect, it } from 'vitest';
import { check, engineTests } from '@vigie/testkit/engines';
import { dynamicInfosFeature } from '../src/index.js';

const engines = engineTests([dynamicInfosFeature]);

interface Report {
  stages: { stage: string; simulated: boolean; would: { what: string; details?: { infos?: Record<string, unknown> } }[] }[];
}

describe('dynamic infos in a dry run', () => {
  it('tells the infos the rules would set; the real run sets them', async () => {
    const h = await engines.start();
    const rule = { name: 'help', infos: [{ name: 'url', value: 'http://help.local/{{ .Alarm.Value.Component }}' }], alarm_patterns: [{ v: { state: { val: 3 } } }] };
    expect((await h.t.post('/api/v2/dynamic-infos', { _id: 'help', ...rule })).status).toBe(200);
    const minor = (await h.t.post('/api/v2/event/dry-run', check({ state: 1 }))).body as Report;
    expect(minor.stages.find((s) => s.stage === 'dynamic-infos')).toEqual({ stage: 'dynamic-infos', simulated: true, would: [{ what: "leave the alarm's dynamic infos as they are" }] });
    const report = (await h.t.post('/api/v2/event/dry-run', check({ state: 3 }))).body as Report;
    const would = report.stages.find((s) => s.stage === 'dynamic-infos')!.would;
    expect(would).toEqual([{ what: "set the alarm's dynamic infos", details: { infos: { help: { url: 'http://help.local/host' } } } }]);
    expect(await h.alarms()).toEqual([]);
    await h.send(check({ state: 3 }));
    const [alarm] = await h.eventually((found) => found[0]?.v.infos?.help !== undefined);
    expect(alarm!.v.infos).toEqual(would[0]!.details!.infos);
  });
});
