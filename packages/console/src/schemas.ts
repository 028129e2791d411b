import { array, object, string } from 'yup';

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
