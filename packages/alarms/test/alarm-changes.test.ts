import { afterEach, describe, expect, it } from 'vitest';
import { kernelRefs } from '@vigie/kernel';
import { alarmTriggerRedeliveredEvent, alarmTriggerEvent, AlarmChangeService, AlarmReader, type AlarmTriggerEvent } from '../src/index.js';
import { AlarmRepository } from '../src/alarm-repository.js';
import { event, startAlarms, type AlarmsHarness } from './harness.js';

let h: AlarmsHarness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

const origin = { connector: 'nagios', connector_name: 'nagios-1', component: 'host', resource: 'disk' };

describe('the alarmChanges service', () => {
  it('applies an event once: the same event id again changes nothing and emits nothing', async () => {
    h = await startAlarms();
    const changes = h.t.kernel.scope('alarms').resolve(AlarmChangeService);
    await changes.apply('disk/host', { type: 'check', state: 2, output: 'x', origin }, { eventId: 'e1' });
    expect(await changes.apply('disk/host', { type: 'check', state: 2, output: 'x', origin }, { eventId: 'e1' })).toBeNull();
    const first = await changes.apply('disk/host', { type: 'ack', author: 'bob' }, { eventId: 'e2' });
    expect(first?.triggers).toEqual(['ack']);
    expect(await changes.apply('disk/host', { type: 'ack', author: 'bob' }, { eventId: 'e2' })).toBeNull();
    expect(await changes.apply('disk/host', { type: 'comment', author: 'bob' }, { eventId: 'e1' })).toBeNull();
    const [alarm] = await h.alarms({ with_steps: true });
    expect(alarm!.v.steps.map((s: { _t: string }) => s._t)).toEqual(['stateinc', 'statusinc', 'ack']);
    expect(alarm).not.toHaveProperty('revision');
    expect(h.triggers).toEqual(['create disk/host', 'ack disk/host']);
  });

  it('emits the triggers of the last change again as alarms.trigger.redelivered when its event comes again', async () => {
    h = await startAlarms();
    const container = h.t.kernel.scope('alarms');
    const changes = container.resolve(AlarmChangeService);
    const redelivered: string[] = [];
    container.resolve(kernelRefs.eventBus).on(alarmTriggerRedeliveredEvent, ({ trigger, eventId }: AlarmTriggerEvent) => {
      redelivered.push(`${trigger} ${eventId}`);
    });
    await changes.apply('disk/host', { type: 'check', state: 2, output: 'x', origin }, { eventId: 'e1' });
    await changes.apply('disk/host', { type: 'check', state: 2, output: 'x', origin }, { eventId: 'e1' });
    await changes.apply('disk/host', { type: 'check', state: 3, output: 'x', origin }, { eventId: 'e2' });
    await changes.apply('disk/host', { type: 'comment', author: 'bob' });
    // e1 is no longer the last event-caused change: nothing to emit again; e2 is.
    await changes.apply('disk/host', { type: 'check', state: 2, output: 'x', origin }, { eventId: 'e1' });
    await changes.apply('disk/host', { type: 'check', state: 3, output: 'x', origin }, { eventId: 'e2' });
    expect(redelivered).toEqual(['create e1', 'stateinc e2']);
    expect(h.triggers).toEqual(['create disk/host', 'stateinc disk/host', 'comment disk/host']);
    const [alarm] = await h.alarms();
    expect(alarm).not.toHaveProperty('last_change');
  });

  it('emits each trigger after the change is stored', async () => {
    h = await startAlarms();
    const container = h.t.kernel.scope('alarms');
    const reader = container.resolve(AlarmReader);
    const seenStored: unknown[] = [];
    container.resolve(kernelRefs.eventBus).on(alarmTriggerEvent, async ({ trigger, alarm }: AlarmTriggerEvent) => {
      const stored = await reader.get(alarm._id);
      seenStored.push([trigger, stored?.v.state.val, stored?.v.ack?.a ?? null]);
    });
    await h.send(event({ state: 3 }), event({ event_type: 'ack', output: 'mine' }));
    expect(seenStored).toEqual([
      ['create', 3, null],
      ['ack', 3, 'root'],
    ]);
  });

  it('runs the operations of one entity one at a time, in call order', async () => {
    h = await startAlarms();
    const changes = h.t.kernel.scope('alarms').resolve(AlarmChangeService);
    await changes.apply('disk/host', { type: 'check', state: 2, origin });
    await Promise.all(Array.from({ length: 20 }, (_, i) => changes.apply('disk/host', { type: 'comment', author: 'bob', output: `c${i}` })));
    const [alarm] = await h.alarms({ with_steps: true });
    expect(alarm!.v.steps.slice(2).map((s: { m: string }) => s.m)).toEqual(Array.from({ length: 20 }, (_, i) => `c${i}`));
  });

  it('refuses to overwrite an alarm another writer changed since it was read', async () => {
    h = await startAlarms();
    const container = h.t.kernel.scope('alarms');
    await container.resolve(AlarmChangeService).apply('disk/host', { type: 'check', state: 2, origin });
    const repository = container.resolve(AlarmRepository);
    const alarm = (await repository.open('disk/host'))!;
    expect(alarm.revision).toBe(1);
    expect(await repository.save({ ...alarm, revision: 2, v: { ...alarm.v, output: 'first writer' } }, alarm)).toBe(true);
    expect(await repository.save({ ...alarm, revision: 2, v: { ...alarm.v, output: 'second writer' } }, alarm)).toBe(false);
    // Two writes in one group commit, one of them stale: only the stale one is refused.
    const other = (await container.resolve(AlarmChangeService).apply('cpu/host', { type: 'check', state: 1, origin: { ...origin, resource: 'cpu' } }))!.alarm;
    const [fresh, stale] = await Promise.all([
      repository.save({ ...other, revision: 2, v: { ...other.v, output: 'fresh' } }, other),
      repository.save({ ...alarm, revision: 3, v: { ...alarm.v, output: 'stale' } }, alarm),
    ]);
    expect([fresh, stale]).toEqual([true, false]);
    expect((await repository.open('disk/host'))!.v.output).toBe('first writer');
    // Two writers making the very same change of one revision (two nodes' beats resolving an alarm in the same
    // second): one of them lands, the other is told it lost, though the stored document reads as what it wrote.
    const current = (await repository.open('disk/host'))!;
    const same = () => ({ ...current, revision: 3, v: { ...current.v, output: 'same change' } });
    const outcomes = await Promise.all([repository.save(same(), current), repository.save(same(), current)]);
    expect(outcomes.filter((landed) => landed)).toHaveLength(1);
  });
});
