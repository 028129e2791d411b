import { array, boolean, mixed, number, object, string } from 'yup';

const ciSchema = object({
  _id: string().required(),
  action: string().required().oneOf(['create', 'set', 'update', 'delete', 'enable', 'disable']),
  type: string().oneOf(['resource', 'component', 'connector', 'watcher']).meta({ jsonSchema: { description: 'Required by create and set' } }),
  name: string().meta({ jsonSchema: { description: 'Defaults to _id on create' } }),
  enabled: boolean(),
  measurements: array(string().required()),
  infos: mixed().meta({ jsonSchema: { type: 'object', description: 'Free-form; set merges its keys into the stored ones' } }),
  impact: array(string().required()),
  depends: array(string().required()),
  action_properties: mixed().meta({ jsonSchema: { type: 'object', description: 'enable/disable: {enable|disable: <epoch seconds or a list of them>}' } }),
});

const linkSchema = object({
  _id: mixed().meta({ jsonSchema: { description: 'Any value, names the link in failure texts' } }),
  from: mixed().required().meta({ jsonSchema: { description: 'An entity id, or a list of them (one link each)' } }),
  to: string().required(),
  action: string().required().oneOf(['create', 'delete']),
});

/** The import document, for the OpenAPI description: the body is stored as sent and checked when processed. */
export const importRequestSchema = object({
  json: object({ cis: array(ciSchema), links: array(linkSchema) }).required(),
}).meta({ jsonSchema: { description: 'Also accepted: application/x-www-form-urlencoded with a field json holding this object as JSON text' } });

export const submissionSchema = object({
  total: number().integer().required(),
  data: array(object({ import_id: string().required() })).required(),
  success: boolean().required(),
});

export const importStatusSchema = object({
  _id: string().required(),
  creation: string().meta({ jsonSchema: { description: 'Python time.asctime() of the submission, e.g. Mon Aug 28 17:41:27 2017 (absent when not_found)' } }),
  status: string().required().oneOf(['pending', 'ongoing', 'done', 'failed', 'not_found']),
  exec_time: string().meta({ jsonSchema: { description: 'HH:MM:SS, when done or failed' } }),
  stats: object({ deleted: number().integer().required(), updated: number().integer().required() }).default(undefined).meta({ jsonSchema: { description: 'When done' } }),
  info: string().meta({ jsonSchema: { description: 'Why the import failed: which element, which action, why' } }),
});

export const errorSchema = object({ name: string().defined(), description: string().defined() });
