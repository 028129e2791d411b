import { array, boolean, mixed, number, object, string, type InferType } from 'yup';
import { longTextField } from '@vigie/input';
import { isSafeFieldPath } from '@vigie/filter-safety';

/** Columns one export may have. */
export const maxColumns = 100;

/** A column: a field path (`v.state.val`), or `{name, label}` to head it with another title. */
export interface Column {
  name: string;
  label: string;
}

function isColumn(value: unknown): boolean {
  const path = (name: unknown) => typeof name === 'string' && name.length <= 200 && isSafeFieldPath(name);
  if (typeof value === 'string') return path(value);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { name, label, ...rest } = value as Record<string, unknown>;
  return Object.keys(rest).length === 0 && path(name) && (label === undefined || (typeof label === 'string' && label.length <= 1024));
}

const columnsField = array(
  mixed<string | { name: string; label?: string }>().test(
    'column',
    '${path} must be a field path such as v.state.val, or {name, label} with such a name and a label of at most 1024 characters',
    (value) => isColumn(value),
  ),
)
  .min(1, 'columns must name at least one column')
  .max(maxColumns, `columns must have at most ${maxColumns} elements`)
  .required('columns is a required field');

/** A filter as JSON text (as the list takes it) or as an object. */
const filterField = mixed<string | Record<string, unknown>>().test(
  'filter',
  'filter must be a JSON object, or one as text',
  (value) => value === undefined || (typeof value === 'string' ? value.length <= 65536 : typeof value === 'object' && value !== null && !Array.isArray(value)),
);

/** Field separators, by name (the original's export names them so). */
export const separators = { comma: ',', semicolon: ';', tab: '\t', space: ' ' } as const;
const separatorField = string()
  .oneOf(Object.keys(separators), 'separator must be comma, semicolon, tab or space')
  .meta({ jsonSchema: { description: 'Field separator: `comma` (default), `semicolon`, `tab` or `space`' } });

/**
 * The original's export named the columns `fields`: a body with `fields` and no `columns` means the same. Applied
 * before the schema.
 */
export function columnsAlias(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !Object.hasOwn(body, 'fields') || Object.hasOwn(body, 'columns')) return body;
  const { fields, ...rest } = body as Record<string, unknown>;
  return { ...rest, columns: fields };
}

const epoch = (name: string) => number().integer(`${name} must be a number of epoch seconds`).min(0, `${name} must be a number of epoch seconds`);

/** `POST /api/v2/alarm-export`: the selection of `GET /alerts/get-alarms` and the columns. */
export const alarmExportBodySchema = object({
  opened: boolean().meta({ jsonSchema: { description: 'Include open alarms (default true)' } }),
  resolved: boolean().meta({ jsonSchema: { description: 'Include resolved alarms (default false)' } }),
  tstart: epoch('tstart'),
  tstop: epoch('tstop'),
  filter: filterField,
  search: string().max(256, 'search must be at most 256 characters'),
  columns: columnsField,
  separator: separatorField,
}).noUnknown('${path} has an unknown key: ${unknown}');

/** `POST /api/v2/entity-export`: a filter on entities and the columns. */
export const entityExportBodySchema = object({
  filter: filterField,
  columns: columnsField,
  separator: separatorField,
}).noUnknown('${path} has an unknown key: ${unknown}');

export type AlarmExportBody = InferType<typeof alarmExportBodySchema>;
export type EntityExportBody = InferType<typeof entityExportBodySchema>;

export const exportStatusSchema = object({
  _id: string().required(),
  type: string().oneOf(['alarm', 'entity']).required(),
  status: string().oneOf(['pending', 'running', 'done', 'failed']).required().meta({ jsonSchema: { description: '`pending`, `running`, `done` or `failed`' } }),
  rows_done: number().integer().required().meta({ jsonSchema: { description: 'Rows written so far' } }),
  total: number().integer().nullable().defined().meta({ jsonSchema: { description: 'Rows to write (null until the job counted them)' } }),
  created: number().integer().required().meta({ jsonSchema: { description: 'Epoch seconds' } }),
  finished: number().integer().nullable().defined(),
  error: longTextField(string()).nullable().defined(),
});

export const errorSchema = object({ name: string().defined(), description: string().defined() });

export { columnsField };
