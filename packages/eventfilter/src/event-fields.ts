import type { VigieEvent } from '@vigie/events';

type FieldKind = 'string' | 'integer' | 'number' | 'boolean' | 'any';

/**
 * The event's fields under their Go names (`types.Event` of the original), which `set_field`, `copy` and the
 * templates' `.Event` use, with the type a value is converted to. Other names are custom fields (`ExtraInfos`).
 */
const goFields: Readonly<Record<string, { key: string; kind: FieldKind }>> = {
  ID: { key: '_id', kind: 'string' },
  Connector: { key: 'connector', kind: 'string' },
  ConnectorName: { key: 'connector_name', kind: 'string' },
  EventType: { key: 'event_type', kind: 'string' },
  Component: { key: 'component', kind: 'string' },
  Resource: { key: 'resource', kind: 'string' },
  PerfData: { key: 'perf_data', kind: 'string' },
  PerfDataArray: { key: 'perf_data_array', kind: 'any' },
  Status: { key: 'status', kind: 'integer' },
  Timestamp: { key: 'timestamp', kind: 'number' },
  StateType: { key: 'state_type', kind: 'integer' },
  SourceType: { key: 'source_type', kind: 'string' },
  LongOutput: { key: 'long_output', kind: 'string' },
  State: { key: 'state', kind: 'integer' },
  Output: { key: 'output', kind: 'string' },
  Author: { key: 'author', kind: 'string' },
  RK: { key: 'routing_key', kind: 'string' },
  AckResources: { key: 'ack_resources', kind: 'boolean' },
  Duration: { key: 'duration', kind: 'integer' },
  Ticket: { key: 'ticket', kind: 'string' },
  StatName: { key: 'stat_name', kind: 'string' },
  Debug: { key: 'debug', kind: 'boolean' },
  Role: { key: 'role', kind: 'string' },
  Initiator: { key: 'initiator', kind: 'string' },
};

/** The Go field `name` names; never a member of `Object.prototype` (a rule may name a field `constructor`). */
const goFieldOf = (name: string) => (Object.hasOwn(goFields, name) ? goFields[name] : undefined);

const goNameOfKey = new Map(Object.entries(goFields).map(([goName, { key }]) => [key, goName]));

/** `value` as a field of `kind`, or an error sentence. Template results are strings: "3" is a fine State. */
function convert(value: unknown, kind: FieldKind, name: string): { value: unknown } | { error: string } {
  switch (kind) {
    case 'any':
      return { value };
    case 'string':
      if (typeof value === 'string') return { value };
      if (typeof value === 'number' || typeof value === 'boolean') return { value: String(value) };
      return { error: `${name} needs a string` };
    case 'integer':
    case 'number': {
      const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof number !== 'number' || !Number.isFinite(number) || (kind === 'integer' && !Number.isInteger(number))) {
        return { error: `${name} needs ${kind === 'integer' ? 'an integer' : 'a number'}, not ${JSON.stringify(value)}` };
      }
      return { value: number };
    }
    case 'boolean':
      if (typeof value === 'boolean') return { value };
      if (value === 'true' || value === 'false') return { value: value === 'true' };
      return { error: `${name} needs a boolean, not ${JSON.stringify(value)}` };
  }
}

/**
 * Sets the field a `set_field`/`copy` action names: a Go field name (`State`, `Output`, …) converted to its type,
 * or any other name as a custom field, kept as given. Returns an error sentence when the value does not convert.
 */
export function setEventField(event: VigieEvent, name: string, value: unknown): string | undefined {
  const field = goFieldOf(name);
  if (!field) {
    // Assigning `__proto__` would replace the event's prototype instead of setting a field.
    if (name === '__proto__') return 'an event field cannot be named __proto__';
    event[name] = value;
    return undefined;
  }
  const converted = convert(value, field.kind, name);
  if ('error' in converted) return converted.error;
  event[field.key] = converted.value;
  return undefined;
}

/** The event as templates see it (`.Event`): Go field names, custom fields under `ExtraInfos`. */
export function eventView(event: VigieEvent): Record<string, unknown> {
  const view: Record<string, unknown> = {};
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(event)) {
    const goName = goNameOfKey.get(key);
    if (goName) view[goName] = value;
    else extra[key] = value;
  }
  view.ExtraInfos = extra;
  return view;
}

/**
 * The Go fields of `.Event` that values read at `paths` (into the template data) depend on, or undefined when one of
 * them reads more of `.Event` (all of it, or `ExtraInfos`). Other names are never in `.Event`.
 */
export function eventFieldsRead(paths: readonly (readonly string[])[]): string[] | undefined {
  const names: string[] = [];
  for (const [root, name] of paths) {
    if (root !== 'Event') continue;
    if (name === undefined || name === 'ExtraInfos') return undefined;
    if (Object.hasOwn(goFields, name)) names.push(name);
  }
  return names;
}

/** The part of `eventView(event)` that holds `names` (from `eventFieldsRead`), with nothing else. */
export function partialEventView(event: VigieEvent, names: readonly string[]): Record<string, unknown> {
  const view: Record<string, unknown> = {};
  for (const name of names) {
    const key = (goFields[name] as { key: string }).key;
    if (Object.prototype.propertyIsEnumerable.call(event, key)) view[name] = event[key];
  }
  return view;
}

/** The event key `setEventField(event, name, …)` writes. */
export function eventFieldKey(name: string): string {
  return goFieldOf(name)?.key ?? name;
}

/** Brings `view` (made by `eventView`) up to date after `setEventField(event, name, …)` succeeded. */
export function refreshEventView(view: Record<string, unknown>, event: VigieEvent, name: string): void {
  const key = eventFieldKey(name);
  const goName = goNameOfKey.get(key);
  if (goName) view[goName] = event[key];
  else (view.ExtraInfos as Record<string, unknown>)[key] = event[key];
}

/** An entity as templates see it (`.ExternalData.entity`): the Go entity's field names. */
export function entityView(entity: Record<string, unknown>): Record<string, unknown> {
  const infos: Record<string, unknown> = {};
  const raw = entity.infos;
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    for (const [key, info] of Object.entries(raw as Record<string, unknown>)) {
      const i = typeof info === 'object' && info !== null ? (info as Record<string, unknown>) : { value: info };
      infos[key] = { Name: i.name ?? key, Description: i.description ?? '', Value: i.value };
    }
  }
  return {
    ID: entity._id,
    Name: entity.name,
    Type: entity.type,
    Component: entity.component,
    Enabled: entity.enabled,
    Impacts: entity.impact,
    Depends: entity.depends,
    Measurements: entity.measurements,
    EnableHistory: entity.enable_history,
    Infos: infos,
  };
}
