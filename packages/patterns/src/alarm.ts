import { isJsonObject } from '@vigie/json';
import {
  allFields,
  anyCondition,
  integerCondition,
  isAbsent,
  nestedCaptures,
  stringCondition,
  type Condition,
  type FieldTest,
  type RegexCaptures,
} from './conditions.js';
import { PatternError } from './errors.js';

/** What an alarm pattern reads: an alarm document (REFERENCE §6.1). */
export interface PatternAlarm {
  _id?: string;
  t?: number;
  d?: string;
  v?: Record<string, unknown>;
  [field: string]: unknown;
}

export type AlarmTest = (alarm: PatternAlarm | undefined, captures: RegexCaptures | null) => boolean;

type Fields = Record<string, unknown>;

const stepFields: Record<string, { goName: string; compile: (raw: unknown, path: string, goName: string) => Condition }> = {
  _t: { goName: 'Type', compile: stringCondition },
  t: { goName: 'Timestamp', compile: (raw, path) => integerCondition(raw, path) },
  a: { goName: 'Author', compile: stringCondition },
  m: { goName: 'Message', compile: stringCondition },
  // A state/status/snooze step holds a number, a ticket step a string.
  val: { goName: 'Value', compile: (raw, path, goName) => anyCondition(raw, path, goName) },
  initiator: { goName: 'Initiator', compile: stringCondition },
  role: { goName: 'Role', compile: stringCondition },
};

/** A step field of `v` (`ack`, `state`, …): null (no such step) or conditions on `_t, t, a, m, val, initiator`. */
function stepCondition(raw: unknown, path: string, withData: boolean): Condition {
  if (raw === null) return isAbsent;
  if (!isJsonObject(raw)) throw new PatternError(path, 'should be null or a step pattern object');
  const tests: FieldTest<Fields>[] = [];
  for (const [key, value] of Object.entries(raw)) {
    const at = `${path}.${key}`;
    if (withData && key === 'data') {
      tests.push({ read: (step) => step.data, condition: nestedCaptures(mapCondition(value, at, (v, p, n) => stringCondition(v, p, n, 'strict')), 'Data') });
      continue;
    }
    const field = stepFields[key];
    if (field === undefined) throw new PatternError(path, `unknown step field "${key}"`);
    tests.push({ read: (step) => step[key], condition: field.compile(value, at, field.goName) });
  }
  const matchStep = allFields(tests);
  return (step, captures) => isJsonObject(step) && matchStep(step, captures);
}

/** An object of custom fields (`extra`, ticket `data`), each with its own condition. */
function mapCondition(raw: unknown, path: string, compile: (raw: unknown, path: string, goName: string) => Condition): Condition {
  if (raw === null) return isAbsent;
  if (!isJsonObject(raw)) throw new PatternError(path, 'should be null or an object of field patterns');
  const tests: FieldTest<Fields | undefined>[] = Object.entries(raw).map(([key, value]) => ({
    read: (record) => record?.[key],
    condition: compile(value, `${path}.${key}`, key),
  }));
  const matchAll = allFields(tests);
  return (record, captures) => matchAll(isJsonObject(record) ? record : undefined, captures);
}

type ValueCompiler = (raw: unknown, path: string, goName: string) => Condition;

const stepCompiler: ValueCompiler = (raw, path) => stepCondition(raw, path, false);
const time: ValueCompiler = (raw, path) => integerCondition(raw, path);

/** The fields of `v` the grammar knows (REFERENCE §5.1), their Go names and how each is compiled. */
const valueFields: Record<string, { goName: string; compile: ValueCompiler; record?: true }> = {
  ack: { goName: 'ACK', compile: stepCompiler, record: true },
  canceled: { goName: 'Canceled', compile: stepCompiler, record: true },
  done: { goName: 'Done', compile: stepCompiler, record: true },
  snooze: { goName: 'Snooze', compile: stepCompiler, record: true },
  state: { goName: 'State', compile: stepCompiler, record: true },
  status: { goName: 'Status', compile: stepCompiler, record: true },
  ticket: { goName: 'Ticket', compile: (raw, path) => stepCondition(raw, path, true), record: true },
  component: { goName: 'Component', compile: stringCondition },
  connector: { goName: 'Connector', compile: stringCondition },
  connector_name: { goName: 'ConnectorName', compile: stringCondition },
  resource: { goName: 'Resource', compile: stringCondition },
  display_name: { goName: 'DisplayName', compile: stringCondition },
  initial_output: { goName: 'InitialOutput', compile: stringCondition },
  output: { goName: 'Output', compile: stringCondition },
  initial_long_output: { goName: 'InitialLongOutput', compile: stringCondition },
  long_output: { goName: 'LongOutput', compile: stringCondition },
  creation_date: { goName: 'CreationDate', compile: time },
  activation_date: { goName: 'ActivationDate', compile: time },
  last_update_date: { goName: 'LastUpdateDate', compile: time },
  last_event_date: { goName: 'LastEventDate', compile: time },
  resolved: { goName: 'Resolved', compile: time },
  hard_limit: { goName: 'HardLimit', compile: time },
  state_changes_since_status_update: { goName: 'StateChangesSinceStatusUpdate', compile: time },
  total_state_changes: { goName: 'TotalStateChanges', compile: time },
  extra: { goName: 'Extra', compile: (raw, path) => mapCondition(raw, path, (v, p, n) => anyCondition(v, p, n)), record: true },
};

function valueCondition(raw: unknown, path: string): Condition {
  if (!isJsonObject(raw)) throw new PatternError(path, 'should be an object of alarm value patterns');
  const tests: FieldTest<Fields>[] = [];
  for (const [key, value] of Object.entries(raw)) {
    const field = valueFields[key];
    if (field === undefined) throw new PatternError(path, `unknown alarm value field "${key}"`);
    const condition = field.compile(value, `${path}.${key}`, field.goName);
    // Steps and maps capture their fields under their own Go name; a plain field captures under its Go name.
    tests.push({ read: (v) => v[key], condition: field.record ? nestedCaptures(condition, field.goName) : condition });
  }
  const matchValue = allFields(tests);
  return (v, captures) => isJsonObject(v) && matchValue(v, captures);
}

/** Compiles one alarm pattern (`_id, t, d, v{…}`). Throws a `PatternError` on an unknown field or operator. */
export function compileAlarmPattern(raw: Record<string, unknown>, path: string): AlarmTest {
  const tests: FieldTest<PatternAlarm>[] = [];
  for (const [key, value] of Object.entries(raw)) {
    const at = path === '' ? key : `${path}.${key}`;
    switch (key) {
      case '_id':
        tests.push({ read: (a) => a._id, condition: stringCondition(value, at, 'ID') });
        break;
      case 't':
        tests.push({ read: (a) => a.t, condition: integerCondition(value, at) });
        break;
      case 'd':
        tests.push({ read: (a) => a.d, condition: stringCondition(value, at, 'EntityID') });
        break;
      case 'v':
        tests.push({ read: (a) => a.v, condition: nestedCaptures(valueCondition(value, at), 'Value') });
        break;
      default:
        throw new PatternError(path, `unknown alarm field "${key}"`);
    }
  }
  if (tests.length === 0) return () => true;
  const matchFields = allFields(tests);
  return (alarm, captures) => alarm !== undefined && matchFields(alarm, captures);
}
