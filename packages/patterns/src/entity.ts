import { isJsonObject } from '@vigie/json';
import {
  allFields,
  anyCondition,
  booleanCondition,
  isAbsent,
  nestedCaptures,
  stringCondition,
  type Condition,
  type FieldTest,
  type RegexCaptures,
} from './conditions.js';
import { PatternError } from './errors.js';

/** What an entity pattern reads: a context-graph entity document (REFERENCE §6.2). */
export interface PatternEntity {
  _id?: string;
  name?: string;
  enabled?: boolean;
  type?: string;
  component?: string;
  infos?: Record<string, unknown>;
  component_infos?: Record<string, unknown>;
  [field: string]: unknown;
}

export type EntityTest = (entity: PatternEntity | undefined, captures: RegexCaptures | null) => boolean;

const infoFields: Record<string, string> = { name: 'Name', description: 'Description', value: 'Value' };

/** `infos.<k>`: null (the info must be absent) or `{name, description, value}` conditions on its string form. */
function infoCondition(raw: unknown, path: string, captureField: string): Condition {
  if (raw === null) return isAbsent;
  if (!isJsonObject(raw)) throw new PatternError(path, 'should be null or an object with name, description or value');
  const tests: FieldTest<Record<string, unknown>>[] = [];
  for (const [key, value] of Object.entries(raw)) {
    const goName = infoFields[key];
    if (goName === undefined) throw new PatternError(path, `unknown info field "${key}"`);
    // An info value may be a list (string-array operators) or a scalar compared as its string form.
    const condition = key === 'value' ? anyCondition(value, `${path}.${key}`, goName, 'info') : stringCondition(value, `${path}.${key}`, goName, 'info');
    tests.push({ read: (info) => info[key], condition });
  }
  const matchInfo = allFields(tests);
  return nestedCaptures((info, captures) => isJsonObject(info) && matchInfo(info, captures), captureField);
}

function infosCondition(raw: unknown, path: string): Condition {
  if (raw === null) return isAbsent;
  if (!isJsonObject(raw)) throw new PatternError(path, 'should be an object of info patterns');
  const tests: FieldTest<Record<string, unknown> | undefined>[] = Object.entries(raw).map(([name, info]) => ({
    read: (infos) => infos?.[name],
    condition: infoCondition(info, `${path}.${name}`, name),
  }));
  const matchInfos = allFields(tests);
  return (infos, captures) => matchInfos(isJsonObject(infos) ? infos : undefined, captures);
}

/**
 * Compiles one entity pattern (`_id, name, enabled, infos.<k>{name, description, value}, component_infos.<k>{…},
 * type, component`). Throws a `PatternError` on an unknown field or operator.
 */
export function compileEntityPattern(raw: Record<string, unknown>, path: string): EntityTest {
  const tests: FieldTest<PatternEntity>[] = [];
  for (const [key, value] of Object.entries(raw)) {
    const at = path === '' ? key : `${path}.${key}`;
    switch (key) {
      case '_id':
        tests.push({ read: (e) => e._id, condition: stringCondition(value, at, 'ID') });
        break;
      case 'name':
        tests.push({ read: (e) => e.name, condition: stringCondition(value, at, 'Name') });
        break;
      case 'type':
        tests.push({ read: (e) => e.type, condition: stringCondition(value, at, 'Type') });
        break;
      case 'component':
        tests.push({ read: (e) => e.component, condition: stringCondition(value, at, 'Component') });
        break;
      case 'enabled':
        // An entity without `enabled` is enabled.
        tests.push({ read: (e) => e.enabled, condition: booleanCondition(value, at, true) });
        break;
      case 'infos':
        tests.push({ read: (e) => e.infos, condition: nestedCaptures(infosCondition(value, at), 'Infos') });
        break;
      case 'component_infos':
        tests.push({ read: (e) => e.component_infos, condition: nestedCaptures(infosCondition(value, at), 'ComponentInfos') });
        break;
      default:
        throw new PatternError(path, `unknown entity field "${key}"`);
    }
  }
  if (tests.length === 0) return () => true;
  const matchFields = allFields(tests);
  return (entity, captures) => entity !== undefined && matchFields(entity, captures);
}
