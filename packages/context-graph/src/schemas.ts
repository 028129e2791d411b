import { array, boolean, mixed, number, object, string } from 'yup';
import { isSafeFieldPath } from '@vigie/filter-safety';

export const maxPageSize = 1000;

/** Query of `GET /api/v2/entities`; values arrive as strings and are cast. */
export const entityListQuerySchema = object({
  filter: string()
    .typeError('filter must be one JSON object')
    .meta({ jsonSchema: { description: 'A MongoDB-style filter as JSON text, e.g. {"type": "resource"}; only safe operators' } }),
  limit: number().typeError('limit must be an integer').integer('limit must be an integer').min(1).max(maxPageSize).default(100),
  start: number().typeError('start must be an integer').integer('start must be an integer').min(0).default(0),
  sort: string()
    .typeError('sort must be a field path')
    .max(200)
    .test('field-path', 'sort must be a field path such as name or infos.site.value', (value) => value === undefined || isSafeFieldPath(value))
    .default('_id'),
  direction: string()
    .typeError('direction must be ASC or DESC')
    .transform((value: unknown) => (typeof value === 'string' ? value.toUpperCase() : value))
    .oneOf(['ASC', 'DESC'], 'direction must be ASC or DESC')
    .default('ASC'),
});

export const entitySchema = object({
  _id: string().required(),
  name: string().required(),
  type: string().required().meta({ jsonSchema: { description: 'resource, component, connector or watcher' } }),
  enabled: boolean().required(),
  impact: array(string().required()).required().meta({ jsonSchema: { description: 'Entities this one impacts; each lists it in depends' } }),
  depends: array(string().required()).required(),
  measurements: array(string().required()).required(),
  infos: mixed().required().meta({ jsonSchema: { type: 'object', description: 'Free-form data, usually {<key>: {name, description, value}}' } }),
  enable_history: array(number().integer().required()).required().meta({ jsonSchema: { description: 'Epoch seconds of each enabling' } }),
  disable_history: array(number().integer().required()).required(),
}).meta({ jsonSchema: { description: 'Fields an import element carried beyond these follow them, unchanged' } });

export const entityListSchema = object({
  total: number().integer().required().meta({ jsonSchema: { description: 'Entities matching the filter' } }),
  count: number().integer().required().meta({ jsonSchema: { description: 'Entities in this page' } }),
  data: array(entitySchema).required(),
});

export const errorSchema = object({ name: string().defined(), description: string().defined() });
