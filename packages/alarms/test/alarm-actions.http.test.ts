import { afterEach, describe, expect, it } from 'vitest';
import { testAdmin } from '@vigie/testkit';
import { event, startAlarms, startSec, type AlarmsHarness, type ListedAlarm } from './harness.js';

let h: AlarmsHarness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

/** The open alarm of `disk/<resource>` … of entity `<resource>/host`. */
async function alarmOf(harness: AlarmsHarness, entity: string): Promise<ListedAlarm> {
  const found = (await harness.alarms({ with_steps: true, opened: true, resolved: true })).find((alarm) => alarm.d === entity);
  if (!found) throw new Error(`no alarm for ${entity}`);
  return found;
}

type Step = Record<string, unknown>;
const comparable = (steps: Step[]) => steps.map(({ _t, a, m, val, role, initiator, data }) => ({ _t, a, m, val, role, initiator, data }));

/** Each action's route body and the event an operator would send instead. */
const sequence: [action: string, body: Record<string, unknown>, event: Record<string, unknown>][] = [
  ['ack', { comment: 'taking it' }, { event_type: 'ack', output: 'taking it' }],
  ['comment', { comment: 'looking at sda1' }, { event_type: 'comment', output: 'looking at sda1' }],
  ['assocticket', { ticket: 'T-42', url: 'https://tickets/T-42', system_name: 'jira' }, { event_type: 'assocticket', ticket: 'T-42', ticket_url: 'https://tickets/T-42', ticket_system_name: 'jira' }],
  ['snooze', { duration: { value: 10, unit: 'm' }, comment: 'later' }, { event_type: 'snooze', duration: 600, output: 'later' }],
  ['unsnooze', {}, { event_type: 'unsnooze' }],
  ['changestate', { state: 3, comment: 'worse than it looks' }, { event_type: 'changestate', state: 3, output: 'worse than it looks' }],
  ['ackremove', {}, { event_type: 'ackremove' }],
  ['cancel', { comment: 'false alarm' }, { event_type: 'cancel', output: 'false alarm' }],
  ['uncancel', {}, { event_type: 'uncancel' }],
  ['done', { comment: 'fixed' }, { event_type: 'done', output: 'fixed' }],
];

describe('PUT /api/v2/alarms/<id>/<action>', () => {
  it('applies every action as the event of that type would: same steps, same triggers, author the user; answers the stored alarm', async () => {
    h = await startAlarms();
    await h.send(event({ resource: 'by-event', state: 2 }), event({ resource: 'by-route', state: 2 }));
    const target = await alarmOf(h, 'by-route/host');
    for (const [action, body, sent] of sequence) {
      h.clock.advance(1000);
      const res = await h.t.put(`/api/v2/alarms/${target._id}/${action}`, body);
      expect(res.status, `${action}: ${JSON.stringify(res.body)}`).toBe(200);
      const answered = res.body as ListedAlarm;
      expect(answered._id).toBe(target._id);
      // The answer is the stored alarm, as the item route shows it.
      expect((await h.t.get(`/api/v2/alarms/${target._id}`)).body).toEqual(answered);
      await h.send(event({ resource: 'by-event', output: '', ...sent }));
    }
    const byEvent = await alarmOf(h, 'by-event/host');
    const byRoute = await alarmOf(h, 'by-route/host');
    expect(comparable(byRoute.v.steps)).toEqual(comparable(byEvent.v.steps));
    expect(byRoute.v.steps.map((step: Step) => step._t)).toEqual([
      'stateinc', 'statusinc', 'ack', 'comment', 'assocticket', 'snooze', 'unsnooze', 'changestate', 'ackremove', 'cancel', 'statusinc', 'uncancel', 'statusdec', 'done',
    ]);
    expect(byRoute.v.steps.slice(2).every((step: Step) => step.a === testAdmin.user && step.initiator === 'user')).toBe(true);
    expect(byRoute.v.ticket).toMatchObject({ _t: 'assocticket', val: 'T-42', data: { ticket_url: 'https://tickets/T-42', ticket_system_name: 'jira' } });
    expect(byRoute.v.state).toMatchObject({ _t: 'changestate', val: 3 });
    expect(byRoute.v.done).toMatchObject({ m: 'fixed' });
    const triggersOf = (entity: string) => h!.triggers.filter((x) => x.endsWith(` ${entity}`)).map((x) => x.split(' ')[0]);
    expect(triggersOf('by-route/host')).toEqual(triggersOf('by-event/host'));
    expect(triggersOf('by-route/host')).toContain('snooze');
  });

  it('keeps a snooze of {value, unit} as the end time', async () => {
    h = await startAlarms();
    await h.send(event({ state: 2 }));
    const [alarm] = await h.alarms();
    const res = await h.t.put(`/api/v2/alarms/${alarm!._id}/snooze`, { duration: { value: 2, unit: 'h' } });
    expect(res.status).toBe(200);
    expect((res.body as ListedAlarm).v.snooze).toMatchObject({ _t: 'snooze', val: startSec + 7200, a: testAdmin.user });
  });

  it('answers 404 for an unknown alarm, 409 for a resolved one and for an action that changes nothing', async () => {
    h = await startAlarms({ done_autosolve_delay: '1m' });
    await h.send(event({ state: 2 }));
    const [alarm] = await h.alarms();
    const unknown = await h.t.put('/api/v2/alarms/no-such-alarm/ack', {});
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ name: 'not_found', description: 'No alarm with id no-such-alarm' });
    const notAcked = await h.t.put(`/api/v2/alarms/${alarm!._id}/ackremove`, {});
    expect(notAcked.status).toBe(409);
    expect(notAcked.body).toEqual({ name: 'conflict', description: `Cannot ackremove alarm ${alarm!._id}: the alarm is not acknowledged` });
    expect((await h.t.put(`/api/v2/alarms/${alarm!._id}/done`)).status).toBe(200);
    h.clock.advance(60_000);
    await h.eventually({}, (alarms) => alarms.length === 0);
    const resolved = await h.t.put(`/api/v2/alarms/${alarm!._id}/ack`, { comment: 'too late' });
    expect(resolved.status).toBe(409);
    expect(resolved.body).toEqual({ name: 'conflict', description: `Cannot ack alarm ${alarm!._id}: alarm ${alarm!._id} is resolved` });
    // A new alarm of the same entity is not touched by an action addressed to the resolved one.
    await h.send(event({ state: 3 }));
    expect((await h.t.put(`/api/v2/alarms/${alarm!._id}/ack`, {})).status).toBe(409);
    expect((await h.alarms())[0]!.v.ack).toBeUndefined();
  });

  it('validates the bodies: bounds, required fields, unknown keys; changestate to 0 as the event route', async () => {
    h = await startAlarms();
    await h.send(event({ state: 2 }));
    const [alarm] = await h.alarms();
    const put = (action: string, body: unknown) => h!.t.put(`/api/v2/alarms/${alarm!._id}/${action}`, body);
    const cases: [string, unknown, string][] = [
      ['ack', { comment: 'x'.repeat(256) }, 'comment must be at most 255 characters'],
      ['ack', { comment: 1 }, 'comment must be a string'],
      ['ack', { other: 1 }, 'the following keys are invalid: other'],
      ['ack', [], 'the body must be a JSON object'],
      ['snooze', {}, 'duration is required'],
      ['snooze', { duration: { value: 1, unit: 'y' } }, 'duration.unit must be one of s, m, h, d, w'],
      ['snooze', { duration: { value: 0, unit: 's' } }, 'duration.value must be at least 1'],
      ['snooze', { duration: 60 }, 'duration must be an object {value, unit}'],
      ['changestate', {}, 'state is required'],
      ['changestate', { state: 4 }, 'state must be an integer from 0 to 3'],
      ['changestate', { state: 0 }, 'a changestate to state 0 (info) is refused unless [engine] allow_change_severity_to_info is true'],
      ['assocticket', {}, 'ticket is required'],
      ['assocticket', { ticket: 'T', url: 'u'.repeat(256) }, 'url must be at most 255 characters'],
      ['comment', {}, 'comment is required'],
    ];
    for (const [action, body, description] of cases) {
      const res = await put(action, body);
      expect(res.status, `${action} ${JSON.stringify(body).slice(0, 60)}`).toBe(400);
      expect((res.body as { description: string }).description).toBe(description);
    }
    expect((await h.alarms({ with_steps: true }))[0]!.v.steps).toHaveLength(2);
  });

  it('acknowledges the resources of a component with ack_resources, as the event does', async () => {
    h = await startAlarms();
    await h.send(
      event({ source_type: 'component', resource: undefined, state: 2 }),
      event({ resource: 'disk', state: 2 }),
      event({ resource: 'cpu', state: 1 }),
      event({ component: 'other', resource: 'disk', state: 1 }),
    );
    const component = (await h.alarms()).find((alarm) => alarm.d === 'host')!;
    const res = await h.t.put(`/api/v2/alarms/${component._id}/ack`, { ack_resources: true, comment: 'all of it' });
    expect(res.status).toBe(200);
    const acked = Object.fromEntries((await h.alarms()).map((alarm) => [alarm.d, alarm.v.ack?.m ?? null]));
    expect(acked).toEqual({ host: 'all of it', 'disk/host': 'all of it', 'cpu/host': 'all of it', 'disk/other': null });
  });
});

describe('PUT /api/v2/bulk/alarms/<action>', () => {
  it('answers 207 with one result per item in order; a bad item never fails the others', async () => {
    h = await startAlarms();
    await h.send(event({ resource: 'a', state: 2 }), event({ resource: 'b', state: 2 }));
    const ids = Object.fromEntries((await h.alarms()).map((alarm) => [alarm.d, alarm._id]));
    const res = await h.t.put('/api/v2/bulk/alarms/ack', [
      { _id: ids['a/host'], comment: 'one' },
      { _id: 'missing' },
      { comment: 'no id' },
      { _id: ids['b/host'], comment: 'x'.repeat(256) },
      { _id: ids['b/host'], comment: 'two' },
      'not an object',
    ]);
    expect(res.status).toBe(207);
    expect(res.body).toEqual([
      { id: ids['a/host'], status: 200 },
      { id: 'missing', status: 404, error: 'No alarm with id missing' },
      { id: '', status: 400, error: '_id is required' },
      { id: ids['b/host'], status: 400, error: 'comment must be at most 255 characters' },
      { id: ids['b/host'], status: 200 },
      { id: '', status: 400, error: 'each item must be a JSON object' },
    ]);
    const acked = Object.fromEntries((await h.alarms()).map((alarm) => [alarm.d, alarm.v.ack?.m]));
    expect(acked).toEqual({ 'a/host': 'one', 'b/host': 'two' });
    const again = await h.t.put('/api/v2/bulk/alarms/ackremove', [{ _id: ids['a/host'] }, { _id: ids['a/host'] }]);
    expect(again.body).toEqual([
      { id: ids['a/host'], status: 200 },
      { id: ids['a/host'], status: 409, error: `Cannot ackremove alarm ${ids['a/host']}: the alarm is not acknowledged` },
    ]);
  });

  it('refuses a body that is not an array of 1 to 1,000 items', async () => {
    h = await startAlarms();
    for (const [body, description] of [
      [{}, 'The body must be a JSON array of items'],
      [[], 'The body must hold at least one item'],
      [Array.from({ length: 1001 }, () => ({ _id: 'x' })), 'A bulk request may carry at most 1000 items; this one has 1001'],
    ] as const) {
      const res = await h.t.put('/api/v2/bulk/alarms/comment', body);
      expect(res.status).toBe(400);
      expect((res.body as { description: string }).description).toBe(description);
    }
  });
});
