import { array, number, object, string } from 'yup';

export const errorSchema = object({ name: string().defined(), description: string().defined() });

const extraSchema = object({ id: string().required(), label: string().required() });

/** `GET /api/v2/console/extensions`: what composed features add to the console. */
export const extensionListSchema = object({
  extensions: array(
    object({
      id: string().required(),
      module: string().required().meta({ jsonSchema: { description: 'Absolute path of the ES module implementing the extension' } }),
      pages: array(object({ path: string().required(), title: string().required() })).required(),
      alarmColumns: array(extraSchema).required(),
      alarmActions: array(extraSchema).required(),
    }),
  ).required(),
});

/** A saved filter's name: shown in a menu, so short. */
const filterName = string()
  .typeError('name must be a string')
  .min(1, 'name must not be empty')
  .max(100, 'name must be at most 100 characters');

/** The alarm list's URL query, without `?`: the view (filters, sort, columns, page size). */
const filterQuery = string()
  .typeError('query must be a string')
  .max(4096, 'query must be at most 4096 characters')
  .matches(/^[^?#\s][^#\s]*$|^$/, 'query must be a URL query without ? or #');

export const savedFilterInputSchema = object({
  name: filterName.required('name is required'),
  query: filterQuery.defined('query is required'),
})
  .typeError('the body must be a JSON object')
  .required('the body must be a JSON object')
  .noUnknown('the following keys are invalid: ${unknown}');

export const savedFilterChangeSchema = object({ name: filterName, query: filterQuery })
  .typeError('the body must be a JSON object')
  .required('the body must be a JSON object')
  .noUnknown('the following keys are invalid: ${unknown}')
  .test('something', 'name or query is required', (value) => value?.name !== undefined || value?.query !== undefined);

export const savedFilterSchema = object({
  _id: string().required(),
  name: string().required(),
  query: string().defined().meta({ jsonSchema: { description: 'The alarm list URL query (`/?<query>` opens the view)' } }),
  created: number().integer().required().meta({ jsonSchema: { description: 'Epoch seconds' } }),
  updated: number().integer().required().meta({ jsonSchema: { description: 'Epoch seconds' } }),
});

export const savedFilterListSchema = object({ data: array(savedFilterSchema).required() });
