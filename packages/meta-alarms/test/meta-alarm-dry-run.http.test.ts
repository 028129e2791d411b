// The meta-alarms stage in an event dry run: the rules that would take the alarm, said and not done; the real runs
// of the same events then do it (the first alarm creates the rule's meta-alarm, the second joins it).
import { describe, expect, it } from 'vitest';
import { check, engineTests, type ListedAlarm } from '@vigie/testkit/engines';
import { metaAlarmsFeature } from '../src/index.js';

const engines = engineTests([metaAlarmsFeature]);

interface Report {
  stages: { stage: string; simulated: boolean; would: { what: string; details?: Record<string, unknown> }[] }[];
}

const metaAlarms = (alarms: ListedAlarm[]) => alarms.filter((a) => typeof a.v.meta === 'string');
const resource = (name: string) => check({ resource: name, output: `${name} down` });

describe('meta-alarms in a dry run', () => {
  it('names the rules that would take the alarm; the real run does what it said', async () => {
    const h = await engines.start();
    const created = await h.t.post('/api/v2/metaalarmrule', { _id: 'disks', name: 'disks', type: 'attribute', config: { entity_patterns: [{ component: 'host' }] } });
    expect(created.status, created.text).toBe(200);
    await h.t.post('/api/v2/metaalarmrule', { _id: 'elsewhere', name: 'elsewhere', type: 'attribute', config: { entity_patterns: [{ component: 'other' }] } });
    const dryRun = async (event: Record<string, unknown>) =>
      ((await h.t.post('/api/v2/event/dry-run', event)).body as Report).stages.find((s) => s.stage === 'meta-alarms');
    expect(await dryRun(resource('disk'))).toEqual({
      stage: 'meta-alarms',
      simulated: true,
      would: [{ what: 'create the meta-alarm of rule disks with this alarm', details: { rule: 'disks' } }],
    });
    expect(await h.alarms()).toEqual([]);
    await h.send(resource('disk'));
    await h.eventually((found) => metaAlarms(found)[0]?.v.children.length === 1);
    expect((await dryRun(resource('cpu')))!.would).toEqual([{ what: 'join the open meta-alarm of rule disks', details: { rule: 'disks' } }]);
    await h.send(resource('cpu'));
    const alarms = await h.eventually((found) => metaAlarms(found)[0]?.v.children.length === 2);
    expect(metaAlarms(alarms).map((meta) => [meta.v.meta, [...meta.v.children].sort()])).toEqual([['disks', ['cpu/host', 'disk/host']]]);
  });
});
