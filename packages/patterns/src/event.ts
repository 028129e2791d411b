import { isJsonObject } from '@vigie/json';
import { allFields, anyCondition, capturesAt, booleanCondition, integerCondition, stringCondition, type Condition, type FieldTest, type RegexCaptures } from './conditions.js';
import { compileEntityPattern, type PatternEntity } from './entity.js';
import { PatternError } from './errors.js';

/** What an event pattern reads: an event (REFERENCE §6.3), unknown keys being custom fields. */
export type PatternEvent = Record<string, unknown>;

export type EventTest = (event: PatternEvent, entity: PatternEntity | undefined, captures: RegexCaptures | null) => boolean;

type FieldKind = 'string' | 'integer' | 'boolean';

/** The event fields the grammar types (REFERENCE §5.1), with their Go names (keys of `RegexMatch`). */
const eventFields: Record<string, { kind: FieldKind; goName: string }> = {
  _id: { kind: 'string', goName: 'ID' },
  connector: { kind: 'string', goName: 'Connector' },
  connector_name: { kind: 'string', goName: 'ConnectorName' },
  event_type: { kind: 'string', goName: 'EventType' },
  component: { kind: 'string', goName: 'Component' },
  resource: { kind: 'string', goName: 'Resource' },
  perf_data: { kind: 'string', goName: 'PerfData' },
  status: { kind: 'integer', goName: 'Status' },
  timestamp: { kind: 'integer', goName: 'Timestamp' },
  state_type: { kind: 'integer', goName: 'StateType' },
  source_type: { kind: 'string', goName: 'SourceType' },
  long_output: { kind: 'string', goName: 'LongOutput' },
  state: { kind: 'integer', goName: 'State' },
  output: { kind: 'string', goName: 'Output' },
  author: { kind: 'string', goName: 'Author' },
  routing_key: { kind: 'string', goName: 'RK' },
  ack_resources: { kind: 'boolean', goName: 'AckResources' },
  duration: { kind: 'integer', goName: 'Duration' },
  ticket: { kind: 'string', goName: 'Ticket' },
  stat_name: { kind: 'string', goName: 'StatName' },
  debug: { kind: 'boolean', goName: 'Debug' },
};

/** Whether `key` is a string field the event grammar types (read as "" when absent). */
export function typedStringField(key: string): boolean {
  return Object.hasOwn(eventFields, key) && eventFields[key]?.kind === 'string';
}

/** Whether `key` is a field the event grammar types (anything else is a custom field). */
export function isTypedEventField(key: string): boolean {
  return Object.hasOwn(eventFields, key);
}

function typedCondition(kind: FieldKind, raw: unknown, path: string, goName: string): Condition {
  if (kind === 'string') return stringCondition(raw, path, goName);
  if (kind === 'integer') return integerCondition(raw, path);
  return booleanCondition(raw, path);
}

/**
 * Compiles one event pattern. `current_entity` is an entity pattern over the event's entity; any other key the
 * grammar does not type is a custom field (string, number or list-of-strings conditions), whose captures go to
 * `RegexMatch.ExtraInfos.<field>`.
 */
export function compileEventPattern(raw: Record<string, unknown>, path: string): EventTest {
  const tests: FieldTest<PatternEvent>[] = [];
  let entityTest: ((entity: PatternEntity | undefined, captures: RegexCaptures | null) => boolean) | undefined;
  for (const [key, value] of Object.entries(raw)) {
    const at = path === '' ? key : `${path}.${key}`;
    if (key === 'current_entity') {
      if (value === null) {
        entityTest = (entity) => entity === undefined;
        continue;
      }
      if (!isJsonObject(value)) throw new PatternError(at, 'should be an entity pattern object');
      const matchEntity = compileEntityPattern(value, at);
      entityTest = (entity, captures) => {
        if (captures === null) return matchEntity(entity, null);
        const nested: RegexCaptures = {};
        if (!matchEntity(entity, nested)) return false;
        captures.Entity = nested;
        return true;
      };
      continue;
    }
    const typed = eventFields[key];
    if (typed) {
      tests.push({ read: (event) => event[key], condition: typedCondition(typed.kind, value, at, typed.goName) });
    } else {
      const condition = anyCondition(value, at, key);
      tests.push({
        read: (event) => event[key],
        condition: (field, captures) => condition(field, captures === null ? null : capturesAt(captures, 'ExtraInfos')),
      });
    }
  }
  const matchFields = allFields(tests);
  if (entityTest === undefined) return (event, _entity, captures) => matchFields(event, captures);
  const matchEntity = entityTest;
  return (event, entity, captures) => matchFields(event, captures) && matchEntity(entity, captures);
}
