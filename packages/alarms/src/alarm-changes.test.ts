import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '@vigie/documents';
import { featureStoreOf } from '@vigie/kernel-testing';
import { EventBus, ManualClock, createLogger } from '@vigie/kernel';
import { AlarmChangeService } from './alarm-changes.js';
import { AlarmRepository } from './alarm-repository.js';
import { alarmsConfigSchema } from './config.js';
import type { AlarmOperation } from './lifecycle.js';

const origin = { connector: 'nagios', connector_name: 'n1', component: 'web', resource: 'cpu' };
const check = (state: number): AlarmOperation => ({ type: 'check', state, output: `state ${state}`, author: 'nagios.n1', origin });
/** The id the events package gives the n-th event a node accepted. */
const eventId = (n: number, node = 'node-a') => `${(1_700_000_000_000).toString(36).padStart(11, '0')}-${n.toString(36).padStart(6, '0')}-${node}`;

function service(): AlarmChangeService {
  return new AlarmChangeService(
    new AlarmRepository(featureStoreOf(createMemoryStore())),
    new ManualClock(1_700_000_000_000),
    new EventBus(),
    createLogger({ level: 'silent' }),
    alarmsConfigSchema.cast({}),
  );
}

describe('AlarmChangeService idempotency', () => {
  it('skips a redelivered event its node applied before, even once out of the recent ids (a burst)', async () => {
    const changes = service();
    // 40 state changes of one entity: more than the 32 recent event ids an alarm keeps.
    for (let n = 1; n <= 40; n++) expect(await changes.apply('cpu/web', check(n % 2 === 0 ? 2 : 3), { eventId: eventId(n) })).not.toBeNull();
    const reasons: string[] = [];
    // Event 3 fell out of the recent ids; redelivered after a crash, the node's mark says it was applied.
    expect(await changes.apply('cpu/web', check(1), { eventId: eventId(3), redelivered: true }, (reason) => reasons.push(reason))).toBeNull();
    expect(reasons).toEqual(['the event was applied before a restart']);
    // A new event of that node, and a redelivered event of another node, still apply.
    expect(await changes.apply('cpu/web', check(1), { eventId: eventId(41), redelivered: true })).not.toBeNull();
    expect(await changes.apply('cpu/web', check(2), { eventId: eventId(2, 'node-b'), redelivered: true })).not.toBeNull();
    // The mark is only asked for redelivered events: a fresh event is judged by the recent ids alone.
    expect(await changes.apply('cpu/web', check(3), { eventId: eventId(4) })).not.toBeNull();
  });
});
