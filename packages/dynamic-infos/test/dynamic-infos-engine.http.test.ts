// The dynamic-infos engine end to end: rules through /api/v2/dynamic-infos, events through /api/v2/event, infos seen
// through /alerts/get-alarms; an injected clock and beats run by the test for the changes no event causes (snooze ends).
import { describe, expect, it } from 'vitest';
import { check, engineTests, type ListedAlarm } from '@vigie/testkit/engines';
import { dynamicInfosFeature } from '../src/index.js';

const start = Date.UTC(2025, 0, 1, 12);
const engines = engineTests([dynamicInfosFeature], { start });

async function rule(body: Record<string, unknown>): Promise<string> {
  const res = await engines.h.t.post('/api/v2/dynamic-infos', { name: 'rule', ...body });
  expect(res.status, res.text).toBe(200);
  return (res.body as { _id: string })._id;
}

const infosOf = (alarms: ListedAlarm[], d = 'disk/host') => alarms.find((a) => a.d === d)?.v.infos as Record<string, unknown> | undefined;
/** Waits until the alarm's infos equal `expected`. */
const infosBecome = (expected: Record<string, unknown>, d = 'disk/host') =>
  engines.h.eventually((found) => JSON.stringify(infosOf(found, d)) === JSON.stringify(expected));
const event = (type: string, extra: Record<string, unknown> = {}) => check({ event_type: type, author: 'bob', output: type, state: undefined, ...extra });

describe('dynamic infos', () => {
  it('sets v.infos.<rule id> with rendered values while the alarm matches and removes it as soon as it does not', async () => {
    await engines.start();
    const id = await rule({
      _id: 'critical-help',
      infos: [
        { name: 'type', value: 'url' },
        { name: 'url', value: 'http://help.local/{{ .Alarm.Value.Component | uppercase }}/{{ .Entity.Name | lowercase }}' },
        { name: 'first', value: '{{ split "," 0 .Alarm.Value.Output | trim }}' },
        { name: 'weight', value: 3 },
      ],
      alarm_patterns: [{ v: { state: { val: 3 } } }],
      entity_patterns: [{ type: 'resource' }],
    });
    await rule({ _id: 'components-only', infos: [{ name: 'x', value: 'y' }], entity_patterns: [{ type: 'component' }] });
    await engines.h.send(check({ state: 2 }));
    expect(infosOf(await engines.h.alarms())).toEqual({});

    await engines.h.send(check({ state: 3, output: ' full , 99% ' }));
    await infosBecome({ [id]: { type: 'url', url: 'http://help.local/HOST/disk', first: 'full', weight: 3 } });

    // A state change: the alarm no longer matches, the info goes.
    await engines.h.send(check({ state: 2 }));
    await infosBecome({});
    const alarm = (await engines.h.alarms())[0]!;
    // Setting and removing infos writes no step.
    expect(alarm.v.steps.map((s: { _t: string }) => s._t)).toEqual(['stateinc', 'statusinc', 'stateinc', 'statedec']);
  });

  it('follows every change, including an ack and the changes beats make', async () => {
    await engines.start();
    const id = await rule({ infos: [{ name: 'todo', value: 'look at {{ .Alarm.Value.Resource }}' }], alarm_patterns: [{ v: { ack: null, snooze: null } }] });
    await engines.h.send(check());
    await infosBecome({ [id]: { todo: 'look at disk' } });
    await engines.h.send(event('ack'));
    await infosBecome({});
    await engines.h.send(event('ackremove'));
    await infosBecome({ [id]: { todo: 'look at disk' } });
    await engines.h.send(event('snooze', { duration: 60 }));
    await infosBecome({});
    // The snooze end is a change of the alarms beat, not of an event.
    engines.clock.advance(61_000);
    const alarms = await infosBecome({ [id]: { todo: 'look at disk' } });
    expect(alarms[0]!.v.steps.at(-1)).toMatchObject({ _t: 'unsnooze' });
  });

  it('applies a rule created, changed or deleted through the API to the next change', async () => {
    await engines.start();
    await engines.h.send(check());
    const id = await rule({ infos: [{ name: 'owner', value: 'team-a' }] });
    expect(infosOf(await engines.h.alarms())).toEqual({});
    await engines.h.send(event('comment'));
    await infosBecome({ [id]: { owner: 'team-a' } });

    const res = await engines.h.t.put(`/api/v2/dynamic-infos/${id}`, { _id: id, name: 'rule', infos: [{ name: 'owner', value: 'team-b' }] });
    expect(res.status, res.text).toBe(200);
    await engines.h.send(event('comment'));
    await infosBecome({ [id]: { owner: 'team-b' } });

    expect((await engines.h.t.delete(`/api/v2/dynamic-infos/${id}`)).status).toBe(200);
    await engines.h.send(event('comment'));
    await infosBecome({});
  });

  it('skips a rule that cannot apply and an info that cannot be rendered, and logs why', async () => {
    await engines.start();
    // json is a template function elsewhere, but not in dynamic infos.
    const skipped = await rule({ _id: 'uses-json', infos: [{ name: 'all', value: '{{ json .Alarm }}' }] });
    const partial = await rule({
      _id: 'bad-index',
      infos: [
        { name: 'ok', value: 'fine' },
        { name: 'broken', value: '{{ split "," "first" .Alarm.Value.Output }}' },
      ],
    });
    const never = await rule({ _id: 'never', infos: [{ name: 'x', value: 'y' }], alarm_patterns: [{ v: { state: { val: 9 } } }] });
    await engines.h.send(check());
    const alarms = await infosBecome({ [partial]: { ok: 'fine' } });
    expect(infosOf(alarms)).not.toHaveProperty(never);
    const skippedLine = await engines.h.logged('dynamic infos rule skipped');
    expect(skippedLine).toContain(skipped);
    expect(skippedLine).toContain('function \\"json\\" not defined');
    expect(await engines.h.logged('dynamic info left out')).toContain('broken');
  });
});
