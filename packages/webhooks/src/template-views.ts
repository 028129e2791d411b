import type { Alarm, AlarmStep } from '@vigie/alarms';
import type { VigieEvent } from '@vigie/events';
import { isJsonObject } from '@vigie/json';

/**
 * What webhook templates see: the stored alarm, event and entity under the Go field names of the original's
 * `types.Alarm`, `types.Event` and `types.Entity` (REFERENCE §5.10), so that templates written for it work as they
 * are. Times (`.Alarm.Value.CreationDate`, `.Event.Timestamp`, step `.Timestamp`, …) are dates: `.Unix` and
 * `formattedDate` work on them. Keys a document does not have are missing (`<no value>`), as in the store.
 */
export interface TemplateData {
  Alarm: Record<string, unknown>;
  Event: Record<string, unknown>;
  Entity: Record<string, unknown>;
  Children: Record<string, unknown>[];
}

type Fields = Readonly<Record<string, readonly [goName: string, kind?: 'time']>>;

/** `v` keys → `types.AlarmValue` fields. Steps are converted by `stepView`. */
const alarmValueFields: Fields = {
  component: ['Component'],
  connector: ['Connector'],
  connector_name: ['ConnectorName'],
  resource: ['Resource'],
  creation_date: ['CreationDate', 'time'],
  activation_date: ['ActivationDate', 'time'],
  display_name: ['DisplayName'],
  hard_limit: ['HardLimit'],
  initial_output: ['InitialOutput'],
  output: ['Output'],
  initial_long_output: ['InitialLongOutput'],
  long_output: ['LongOutput'],
  long_output_history: ['LongOutputHistory'],
  last_update_date: ['LastUpdateDate', 'time'],
  last_event_date: ['LastEventDate', 'time'],
  resolved: ['Resolved', 'time'],
  state_changes_since_status_update: ['StateChangesSinceStatusUpdate'],
  total_state_changes: ['TotalStateChanges'],
  extra: ['Extra'],
  infos: ['Infos'],
  tags: ['Tags'],
  parents: ['Parents'],
  children: ['Children'],
  meta: ['Meta'],
};

/** `v` keys holding one step → their Go names. */
const alarmStepFields: Readonly<Record<string, string>> = {
  state: 'State',
  status: 'Status',
  ack: 'ACK',
  canceled: 'Canceled',
  done: 'Done',
  snooze: 'Snooze',
  ticket: 'Ticket',
};

/** Event keys → `types.Event` fields; other keys are custom fields, under `ExtraInfos`. */
const eventFields: Fields = {
  _id: ['ID'],
  connector: ['Connector'],
  connector_name: ['ConnectorName'],
  event_type: ['EventType'],
  component: ['Component'],
  resource: ['Resource'],
  perf_data: ['PerfData'],
  perf_data_array: ['PerfDataArray'],
  status: ['Status'],
  timestamp: ['Timestamp', 'time'],
  state_type: ['StateType'],
  source_type: ['SourceType'],
  long_output: ['LongOutput'],
  state: ['State'],
  output: ['Output'],
  author: ['Author'],
  routing_key: ['RK'],
  ack_resources: ['AckResources'],
  duration: ['Duration'],
  ticket: ['Ticket'],
  stat_name: ['StatName'],
  debug: ['Debug'],
  role: ['Role'],
  initiator: ['Initiator'],
};

/** Entity keys → `types.Entity` fields; `infos` are converted to `{Name, Description, Value}`. */
const entityFields: Fields = {
  _id: ['ID'],
  name: ['Name'],
  description: ['Description'],
  type: ['Type'],
  component: ['Component'],
  enabled: ['Enabled'],
  impact: ['Impacts'],
  depends: ['Depends'],
  measurements: ['Measurements'],
  enable_history: ['EnableHistory'],
  last_event_date: ['LastEventDate', 'time'],
  created: ['Created', 'time'],
};

function time(value: unknown): unknown {
  return typeof value === 'number' && Number.isFinite(value) ? new Date(value * 1000) : value;
}

function mapped(source: Record<string, unknown>, fields: Fields, into: Record<string, unknown>, rest?: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(source)) {
    const field = fields[key];
    if (field) into[field[0]] = field[1] === 'time' ? time(value) : value;
    else if (rest) rest[key] = value;
  }
}

/** `types.AlarmStep`: `Type, Timestamp, Author, Message, Value, Role, Initiator` (and `Data` for tickets). */
export function stepView(step: AlarmStep): Record<string, unknown> {
  return {
    Type: step._t,
    Timestamp: time(step.t),
    Author: step.a,
    Message: step.m,
    Value: step.val,
    ...(step.role !== undefined ? { Role: step.role } : {}),
    ...(step.initiator !== undefined ? { Initiator: step.initiator } : {}),
    ...(step.data !== undefined ? { Data: step.data } : {}),
  };
}

/** `.Alarm`: `ID, Time, EntityID, Value{…}`. */
export function alarmView(alarm: Alarm): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  mapped(alarm.v, alarmValueFields, value);
  for (const [key, goName] of Object.entries(alarmStepFields)) {
    const step = alarm.v[key];
    if (isJsonObject(step)) value[goName] = stepView(step as unknown as AlarmStep);
  }
  value.Steps = alarm.v.steps.map(stepView);
  return { ID: alarm._id, Time: time(alarm.t), EntityID: alarm.d, Value: value };
}

/**
 * `.Event`: the event's Go fields, custom fields under `ExtraInfos`, and `AlarmChange{Type}` = the trigger. A change
 * that no event caused (a beat's resolve, unsnooze; a declared ticket) gets the event the original engines build for
 * it: the alarm's identity, its output and state, and the trigger.
 */
export function eventView(event: VigieEvent | undefined, alarm: Alarm, trigger: string, nowSec: number): Record<string, unknown> {
  const source: Record<string, unknown> = event ?? {
    connector: alarm.v.connector,
    connector_name: alarm.v.connector_name,
    component: alarm.v.component,
    ...(alarm.v.resource !== undefined ? { resource: alarm.v.resource } : {}),
    source_type: alarm.v.resource !== undefined ? 'resource' : 'component',
    event_type: trigger,
    state: Number(alarm.v.state.val ?? 0),
    output: alarm.v.output,
    timestamp: nowSec,
  };
  const view: Record<string, unknown> = {};
  const extra: Record<string, unknown> = {};
  mapped(source, eventFields, view, extra);
  view.ExtraInfos = extra;
  view.AlarmChange = { Type: trigger };
  return view;
}

/** `.Entity`: Go field names; `Infos.<k>` = `{Name, Description, Value}`. */
export function entityView(entity: Record<string, unknown> | null | undefined): Record<string, unknown> {
  if (!entity) return {};
  const view: Record<string, unknown> = {};
  mapped(entity, entityFields, view);
  const infos: Record<string, unknown> = {};
  if (isJsonObject(entity.infos)) {
    for (const [key, info] of Object.entries(entity.infos)) {
      const fields = isJsonObject(info) ? info : { value: info };
      infos[key] = { Name: fields.name ?? key, Description: fields.description ?? '', Value: fields.value };
    }
  }
  view.Infos = infos;
  return view;
}

export function templateData(input: {
  alarm: Alarm;
  trigger: string;
  nowSec: number;
  event?: VigieEvent;
  entity?: Record<string, unknown> | null;
  children?: Alarm[];
}): TemplateData {
  return {
    Alarm: alarmView(input.alarm),
    Event: eventView(input.event, input.alarm, input.trigger, input.nowSec),
    Entity: entityView(input.entity),
    Children: (input.children ?? []).map(alarmView),
  };
}
