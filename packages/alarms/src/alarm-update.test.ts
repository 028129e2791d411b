import { createMemoryStore } from '@vigie/documents';
import { describe, expect, it } from 'vitest';
import { alarmCollection, maxSteps, type Alarm } from './alarm.js';
import { alarmUpdate } from './alarm-update.js';
import { alarmsConfigSchema, lifecycleSettings } from './config.js';
import { applyOperation, type AlarmOperation, type LifecycleSettings } from './lifecycle.js';

/** The `[alarms]` defaults, with the last event date kept. */
const settings: LifecycleSettings = { ...lifecycleSettings(alarmsConfigSchema.cast({})), enableLastEventDate: true };
const origin = { connector: 'nagios', connector_name: 'n1', component: 'web', resource: 'cpu' };
let now = 1_000_000;
const check = (state: number, output = `state ${state}`, extra: Partial<AlarmOperation> = {}): AlarmOperation => ({
  type: 'check',
  state,
  output,
  author: 'nagios.n1',
  origin,
  ...extra,
});

/**
 * Applies the operations one after the other as the change service does (revision, applied event ids, last
 * change), storing each change both ways — a replacement in one store, `alarmUpdate`'s update in another — and
 * checks that both store the same document, member order included. Returns how many changes went as updates.
 */
async function bothWays(operations: AlarmOperation[]): Promise<{ updates: number; replaces: number; last: Alarm }> {
  const replaced = createMemoryStore().collection<Alarm>(alarmCollection.name);
  const updated = createMemoryStore().collection<Alarm>(alarmCollection.name);
  let current: Alarm | null = null;
  let updates = 0;
  let replaces = 0;
  let eventNumber = 0;
  for (const operation of operations) {
    now += 7;
    const result = applyOperation(current, operation, { entityId: 'cpu/web', nowSec: now, settings, newId: () => 'alarm-1', displayName: () => 'AB-CD-EF' });
    if (!result.changed) continue;
    const eventId = `event-${++eventNumber}`;
    const applied = [...(result.created ? [] : (current?.applied_events ?? [])), eventId];
    const next: Alarm = {
      ...result.alarm,
      revision: (current?.revision ?? 0) + 1,
      applied_events: applied.slice(-32),
      ...(operation.type === 'check' ? { last_change: { event: eventId, triggers: result.triggers } } : {}),
    };
    if (current === null) {
      await replaced.insertOne(next);
      await updated.insertOne(next);
    } else {
      const filter = { _id: next._id, revision: current.revision ?? null };
      expect((await replaced.replaceOne(filter, next)).matchedCount).toBe(1);
      const update = alarmUpdate(current, next);
      if (update) {
        updates += 1;
        expect((await updated.updateOne(filter, update)).matchedCount).toBe(1);
      } else {
        replaces += 1;
        expect((await updated.replaceOne(filter, next)).matchedCount).toBe(1);
      }
    }
    const [byReplace, byUpdate] = [await replaced.findOne({ _id: next._id }), await updated.findOne({ _id: next._id })];
    expect(JSON.stringify(byUpdate), operation.type).toBe(JSON.stringify(byReplace));
    expect(JSON.stringify(byUpdate)).toBe(JSON.stringify(next));
    current = byUpdate;
  }
  if (current === null) throw new Error('no alarm');
  return { updates, replaces, last: current };
}

describe('alarmUpdate', () => {
  it('stores what a replacement stores through the lifecycle operations, as updates', async () => {
    const { updates, replaces, last } = await bothWays([
      check(2, 'disk full', { longOutput: 'details' }),
      check(3, 'worse', { longOutput: 'more details' }),
      check(3, 'same state, new output'),
      { type: 'ack', author: 'bob', output: 'mine' },
      { type: 'comment', author: 'bob', output: 'looking' },
      { type: 'assocticket', author: 'bob', ticket: 'T-1' },
      { type: 'declareticket', author: 'bob', ticket: 'T-2', ticketData: { url: 'http://t/2' } },
      { type: 'ackremove', author: 'bob' },
      { type: 'ack', author: 'alice', output: 'mine now' },
      { type: 'snooze', author: 'bob', duration: 3600 },
      { type: 'unsnooze', author: 'system', initiator: 'system' },
      { type: 'changestate', state: 1, author: 'bob', output: 'calm down' },
      { type: 'pbhenter', pbehaviorInfo: { id: 'p1', name: 'maintenance', reason: 'r', type: 't', type_name: 'Maintenance', canonical_type: 'maintenance' } },
      { type: 'pbhleave', pbehaviorId: 'p1' },
      { type: 'dynamicinfos', infos: { rule: { owner: 'ops' } } },
      { type: 'cancel', author: 'bob', output: 'false alarm' },
      { type: 'uncancel', author: 'bob' },
      { type: 'done', author: 'bob' },
      check(0, 'fine'),
      { type: 'resolve', author: 'system', initiator: 'system' },
    ]);
    expect(last.v.resolved).toBeDefined();
    expect(replaces).toBe(0);
    expect(updates).toBeGreaterThan(15);
  });

  it('rewrites a statecounter step in place, storing the same', async () => {
    const flapping = await bothWays([check(1), ...Array.from({ length: 30 }, (_, i) => check(i % 2 === 0 ? 3 : 1))]);
    expect(flapping.replaces).toBe(0);
    expect(flapping.last.v.steps.at(-1)?._t).toBe('statecounter');
    expect(flapping.last.v.steps.at(-1)?.val).toBe(10);
  });

  it('replaces when the step cap drops old steps, storing the same', async () => {
    const long = await bothWays([check(2), ...Array.from({ length: maxSteps + 5 }, (_, i): AlarmOperation => ({ type: 'comment', author: 'bob', output: `c${i}` }))]);
    expect(long.last.v.steps).toHaveLength(maxSteps);
    // The creation made two steps (stateinc, statusinc): the last 7 comments each dropped one.
    expect(long.replaces).toBe(7);
  });

  it('replaces when the members would come out in another order', () => {
    const previous = { _id: 'a', t: 1, d: 'e', v: { state: 1, status: 2, steps: [] } } as unknown as Alarm;
    const reordered = { _id: 'a', t: 1, d: 'e', v: { status: 2, state: 3, steps: [] } } as unknown as Alarm;
    expect(alarmUpdate(previous, reordered)).toBeUndefined();
    const added = { _id: 'a', t: 1, d: 'e', v: { state: 3, status: 2, steps: [], ack: 1 } } as unknown as Alarm;
    expect(alarmUpdate(previous, added)).toEqual({ $set: { 'v.state': 3, 'v.ack': 1 } });
  });
});
