// The dynamic-infos preview: the alarms a rule selects and the infos it would set, checked against the saved rule.
import { describe, expect, it } from 'vitest';
import { expectError } from '@vigie/testkit';
import { check, engineTests } from '@vigie/testkit/engines';
import { dynamicInfosFeature } from '../src/index.js';

const engines = engineTests([dynamicInfosFeature], { start: Date.UTC(2025, 0, 1, 12) });

const rule = {
  _id: 'help',
  name: 'help links',
  infos: [
    { name: 'url', value: 'http://help.local/{{ .Entity.Name | uppercase }}' },
    { name: 'weight', value: 3 },
  ],
  alarm_patterns: [{ v: { state: { val: 3 } } }],
  entity_patterns: [{ type: 'resource' }],
};

describe('dynamic infos preview', () => {
  it('lists the alarms the rule selects with the infos it would set, as the saved rule then sets them', async () => {
    const h = await engines.start();
    await h.send(check({ resource: 'disk', state: 3 }), check({ resource: 'cpu', state: 2 }), check({ source_type: 'component', resource: undefined, component: 'db', state: 3 }));
    const preview = await h.t.post('/api/v2/dynamic-infos/preview', rule);
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body).toMatchObject({ subject: 'alarms', count: 1, scanned: 3, data: [{ entity_id: 'disk/host', infos: { url: 'http://help.local/DISK', weight: 3 } }] });
    expect((await h.t.get('/api/v2/dynamic-infos')).body).toMatchObject({ count: 0 });

    await h.t.post('/api/v2/dynamic-infos', rule);
    // A change of each alarm (an ack) makes the engine evaluate it.
    const ack = { event_type: 'ack', author: 'bob', output: 'seen', state: undefined };
    await h.send(check({ resource: 'disk', ...ack }), check({ resource: 'cpu', ...ack }), check({ source_type: 'component', resource: undefined, component: 'db', ...ack }));
    const alarms = await h.eventually((found) => found.some((a) => a.v.infos?.help !== undefined));
    const withInfos = alarms.filter((a) => a.v.infos?.help !== undefined);
    expect(withInfos.map((a) => [a.d, a.v.infos.help])).toEqual((preview.body as { data: { entity_id: string; infos: unknown }[] }).data.map((a) => [a.entity_id, a.infos]));
  });

  it('validates the body as the create route does', async () => {
    const h = await engines.start();
    await expectError(h.t.post('/api/v2/dynamic-infos/preview', { ...rule, infos: undefined }), 400, ((await h.t.post('/api/v2/dynamic-infos', { ...rule, infos: undefined })).body as { description: string }).description);
  });
});
