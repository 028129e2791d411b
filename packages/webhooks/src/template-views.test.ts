import { describe, expect, it } from 'vitest';
import type { Alarm } from '@vigie/alarms';
import { compile } from '@vigie/templates';
import { templateData } from './template-views.js';

const step = (type: string, val: number | string, extra: Record<string, unknown> = {}) => ({ _t: type, t: 1_700_000_100, a: 'nagios.nagios-1', m: 'disk full', val, ...extra });

const alarm = {
  _id: 'a1',
  t: 1_700_000_000,
  d: 'disk/host',
  v: {
    state: step('stateinc', 3),
    status: step('statusinc', 1),
    steps: [step('stateinc', 3), step('statusinc', 1)],
    ack: { ...step('ack', 0), a: 'bob', m: 'mine' },
    ticket: step('declareticket', 'INC-9', { data: { queue: 'ops' } }),
    connector: 'nagios',
    connector_name: 'nagios-1',
    component: 'host',
    resource: 'disk',
    creation_date: 1_700_000_000,
    activation_date: 1_700_000_000,
    display_name: 'AB-CD-EF',
    initial_output: 'disk full',
    output: 'disk full',
    initial_long_output: '',
    long_output: '',
    long_output_history: [],
    last_update_date: 1_700_000_100,
    last_event_date: 1_700_000_000,
    state_changes_since_status_update: 0,
    total_state_changes: 1,
    extra: {},
    infos: {},
    tags: [],
    parents: [],
    children: [],
  },
} as unknown as Alarm;

const render = (source: string, data: ReturnType<typeof templateData>) => compile(source).render(data);

describe('template data', () => {
  it('shows the alarm under the Go field names, times as dates', () => {
    const data = templateData({ alarm, trigger: 'stateinc', nowSec: 1_700_000_200 });
    expect(
      render(
        '{{.Alarm.ID}} {{.Alarm.EntityID}} {{.Alarm.Value.Component}}/{{.Alarm.Value.Resource}} {{.Alarm.Value.State.Value}} ' +
          '{{.Alarm.Value.Status.Value}} {{.Alarm.Value.State.Message}} {{.Alarm.Value.ACK.Author}} {{.Alarm.Value.Ticket.Value}} ' +
          '{{.Alarm.Value.Ticket.Data.queue}} {{.Alarm.Value.CreationDate.Unix}} {{len .Alarm.Value.Steps}} {{(index .Alarm.Value.Steps 0).Type}}',
        data,
      ),
    ).toBe('a1 disk/host host/disk 3 1 disk full bob INC-9 ops 1700000000 2 stateinc');
    expect(render('{{ .Alarm.Value.LastUpdateDate | formattedDate "2006-01-02 15:04" }}', data)).toBe('2023-11-14 22:15');
  });

  it('shows the event with AlarmChange.Type and custom fields under ExtraInfos', () => {
    const event = { event_type: 'check', source_type: 'resource', connector: 'nagios', connector_name: 'nagios-1', component: 'host', resource: 'disk', timestamp: 1_700_000_050, state: 3, output: 'disk full', site: 'paris' };
    const data = templateData({ alarm, trigger: 'stateinc', nowSec: 1_700_000_200, event });
    expect(render('{{.Event.EventType}} {{.Event.Output}} {{.Event.State}} {{.Event.Timestamp.Unix}} {{.Event.AlarmChange.Type}} {{.Event.ExtraInfos.site}}', data)).toBe(
      'check disk full 3 1700000050 stateinc paris',
    );
  });

  it('builds the event of a change no event caused from the alarm', () => {
    const data = templateData({ alarm, trigger: 'resolve', nowSec: 1_700_000_200 });
    expect(render('{{.Event.EventType}} {{.Event.Component}} {{.Event.Resource}} {{.Event.SourceType}} {{.Event.State}} {{.Event.Timestamp.Unix}} {{.Event.AlarmChange.Type}}', data)).toBe(
      'resolve host disk resource 3 1700000200 resolve',
    );
  });

  it('shows the entity with Infos.<k>.Value, and the children', () => {
    const entity = { _id: 'disk/host', name: 'disk', type: 'resource', enabled: true, impact: ['host'], depends: ['nagios/nagios-1'], infos: { site: { name: 'site', description: 'where', value: 'paris' }, rack: { value: 12 } } };
    const child = { ...alarm, _id: 'child-1' } as Alarm;
    const data = templateData({ alarm, trigger: 'create', nowSec: 0, entity, children: [child] });
    expect(render('{{.Entity.ID}} {{.Entity.Type}} {{.Entity.Infos.site.Value}} {{.Entity.Infos.site.Description}} {{.Entity.Infos.rack.Value}} {{index .Entity.Impacts 0}}', data)).toBe(
      'disk/host resource paris where 12 host',
    );
    expect(render('{{range .Children}}{{.ID}} {{.Value.Component}}{{end}}', data)).toBe('child-1 host');
  });
});
