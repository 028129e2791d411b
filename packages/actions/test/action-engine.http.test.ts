// The action engine end to end: actions configured through /api/v2/actions, events through /api/v2/event, effects
// read through /alerts/get-alarms.
import { describe, expect, it } from 'vitest';
import { check, engineTests, type ListedAlarm } from '@vigie/testkit/engines';
import { actionsFeature } from '../src/index.js';

const engines = engineTests([actionsFeature]);

async function action(body: Record<string, unknown>): Promise<void> {
  const res = await engines.h.t.post('/api/v2/actions', body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

const disk = (alarms: ListedAlarm[]) => alarms.find((a) => a.d === 'disk/host');

describe('actions on triggers', () => {
  it('acks the alarms of matching events on create, and leaves the others alone', async () => {
    const h = await engines.start();
    await action({ _id: 'ack-nagios', type: 'ack', hook: { triggers: ['create'], event_patterns: [{ connector: 'nagios' }] }, parameters: { author: 'robot', output: 'seen' } });
    await h.send(check(), check({ connector: 'zabbix', resource: 'cpu' }));
    const alarms = await h.eventually((found) => disk(found)?.v.ack !== undefined);
    expect(disk(alarms)!.v.ack).toMatchObject({ _t: 'ack', a: 'robot', m: 'seen', initiator: 'system' });
    expect(alarms.find((a) => a.d === 'cpu/host')!.v.ack).toBeUndefined();
  });

  it('applies only when every given pattern list matches (event, alarm, entity)', async () => {
    const h = await engines.start();
    const hook = (alarmState: number) => ({
      triggers: ['create'],
      event_patterns: [{ component: 'host' }],
      alarm_patterns: [{ v: { state: { val: alarmState } } }],
      entity_patterns: [{ type: 'resource' }],
    });
    await action({ _id: 'snooze-critical', type: 'snooze', hook: hook(3), parameters: { duration: 600 } });
    await action({ _id: 'ticket-major', type: 'assocticket', hook: hook(2), parameters: { ticket: 'T-1' } });
    await h.send(check({ state: 2 }));
    const [alarm] = await h.eventually((found) => disk(found)?.v.ticket !== undefined);
    expect(alarm!.v.ticket).toMatchObject({ _t: 'assocticket', val: 'T-1' });
    expect(alarm!.v.snooze).toBeUndefined();
  });

  it('fires on triggers that come from no event (a beat) when its event pattern list is empty', async () => {
    const h = await engines.start();
    await action({ _id: 'ack-after-snooze', type: 'ack', hook: { triggers: ['unsnooze'], event_patterns: [] }, parameters: { output: 'woke up' } });
    await h.send(check(), { ...check(), event_type: 'snooze', duration: 1, author: 'alice' });
    const [alarm] = await h.eventually((found) => disk(found)?.v.ack !== undefined);
    expect(alarm!.v.ack).toMatchObject({ m: 'woke up' });
    expect(alarm!.v.steps.map((s: { _t: string }) => s._t)).toContain('unsnooze');
  });

  it('applies matching actions in priority order', async () => {
    const h = await engines.start();
    await action({ _id: 'a-last', type: 'changestate', priority: 2, hook: { triggers: ['create'] }, parameters: { state: 1, output: 'second' } });
    await action({ _id: 'b-first', type: 'changestate', priority: 1, hook: { triggers: ['create'] }, parameters: { state: 3, output: 'first' } });
    await h.send(check());
    const [alarm] = await h.eventually((found) => disk(found)?.v.steps.filter((s: { _t: string }) => s._t === 'changestate').length === 2);
    expect(alarm!.v.steps.filter((s: { _t: string }) => s._t === 'changestate').map((s: { m: string; val: number }) => [s.m, s.val])).toEqual([
      ['first', 3],
      ['second', 1],
    ]);
    expect(alarm!.v.state.val).toBe(1);
  });

  it('runs every operation type, on the triggers of operations too, without firing on its own changes', async () => {
    const h = await engines.start();
    await action({ _id: 'declare', type: 'declareticket', hook: { triggers: ['create'] } });
    await action({ _id: 'unack', type: 'ackremove', hook: { triggers: ['ack'] }, parameters: { output: 'not yet' } });
    // Its own ack trigger does not fire it again (nor the ackremove action): no loop.
    await action({ _id: 'ack-back', type: 'ack', hook: { triggers: ['ackremove'] } });
    await action({ _id: 'cancel-on-comment', type: 'cancel', hook: { triggers: ['comment'] }, parameters: { output: 'by rule' } });
    await action({
      _id: 'pause',
      type: 'pbehavior',
      hook: { triggers: ['create'] },
      parameters: { name: 'paused by action', author: 'robot', type: 'Pause', reason: 'auto', start_on_trigger: true, duration: { seconds: 3600, unit: 'h' } },
    });
    await h.send(check());
    await h.eventually((found) => disk(found)?.v.ticket?._t === 'declareticket');
    await h.send({ ...check(), event_type: 'ack', author: 'alice', output: 'mine' });
    await h.eventually((found) => disk(found)?.v.steps.some((s: { _t: string }) => s._t === 'ackremove'));
    await h.send({ ...check(), event_type: 'comment', author: 'alice', output: 'hello' });
    const [alarm] = await h.eventually((found) => disk(found)?.v.canceled !== undefined);
    const types = alarm!.v.steps.map((s: { _t: string }) => s._t);
    expect(types.filter((t: string) => t === 'ack')).toHaveLength(1);
    expect(types.filter((t: string) => t === 'ackremove')).toHaveLength(1);
    expect(alarm!.v.canceled).toMatchObject({ m: 'by rule', a: 'system' });
    const pbehaviors = await h.t.get('/api/v2/pbehavior_byeid/disk/host');
    expect(pbehaviors.body).toMatchObject([{ name: 'paused by action', author: 'robot', type_: 'Pause', reason: 'auto', is_currently_active: true }]);
  });

  it('applies a legacy action (fields and regex, no hook) once per change caused by an event', async () => {
    const h = await engines.start();
    await action({ _id: 'legacy', type: 'ack', fields: ['output', 'resource'], regex: '^disk' });
    await h.send(check(), check({ resource: 'cpu', output: 'cpu busy' }));
    await h.eventually((found) => disk(found)?.v.ack !== undefined);
    // Another event that changes the alarm: one more ack, whatever the number of triggers of its change.
    await h.send(check({ state: 3 }));
    const alarms = await h.eventually((found) => disk(found)?.v.steps.filter((s: { _t: string }) => s._t === 'ack').length === 2);
    await h.beat();
    expect((await h.alarms()).find((a) => a.d === 'disk/host')!.v.steps.filter((s: { _t: string }) => s._t === 'ack')).toHaveLength(2);
    expect(alarms.find((a) => a.d === 'cpu/host')!.v.ack).toBeUndefined();
  });

  it('runs a delayed action once, later, as a durable job', async () => {
    const h = await engines.start();
    await action({ _id: 'late-ack', type: 'ack', delay: '1s', hook: { triggers: ['create'] } });
    await h.send(check());
    expect(disk(await h.alarms())!.v.ack).toBeUndefined();
    const [alarm] = await h.eventually((found) => disk(found)?.v.ack !== undefined);
    expect(alarm!.v.steps.filter((s: { _t: string }) => s._t === 'ack')).toHaveLength(1);
  });

  it('does nothing, and logs why, for a pattern that cannot match or an operation on a resolved alarm', async () => {
    const h = await engines.start({ alarms: { baggot_time: '1s' } });
    await action({ _id: 'never', type: 'ack', hook: { triggers: ['create'], alarm_patterns: [{ v: { state: { val: 9 } } }] } });
    // A field the alarm grammar does not have (a typo of `state`): the engine cannot compile the pattern.
    await action({ _id: 'typo', type: 'ack', hook: { triggers: ['create'], alarm_patterns: [{ v: { stat: { val: 2 } } }] } });
    await action({ _id: 'too-late', type: 'cancel', delay: '2s', hook: { triggers: ['create'] } });
    await action({ _id: 'unack-nothing', type: 'ackremove', hook: { triggers: ['create'] } });
    await h.send(check(), check({ state: 0 }));
    await h.eventually((found) => found.length === 1, { opened: false, resolved: true });
    await h.logged('delayed action not applied: the alarm was resolved');
    expect(await h.logged('action skipped: it cannot be applied')).toContain('"action":"typo"');
    expect(await h.logged('"rule":"action unack-nothing"')).toContain('rule operation did nothing');
    const [resolved] = await h.alarms({ opened: false, resolved: true });
    expect(resolved!.v.ack).toBeUndefined();
    expect(resolved!.v.canceled).toBeUndefined();
  });
});
