import { array, boolean, number, object, string } from 'yup';
import { textField } from '@vigie/kernel';

/** `#` and 3 or 6 hexadecimal digits, e.g. `#f00`, `#1a2B3c`. */
export const hexColourPattern = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/** POST and PUT bodies: exactly these four keys; any other key (even `_id`) makes the payload invalid. */
export const broadcastMessageInputSchema = object({
  message: textField(string()).defined().meta({ jsonSchema: { description: 'Text displayed' } }),
  color: string()
    .matches(hexColourPattern, '${path} must be # followed by 3 or 6 hexadecimal digits')
    .required()
    .meta({ jsonSchema: { description: 'Hexadecimal colour with a leading #' } }),
  start: number().integer().required().meta({ jsonSchema: { description: 'Start of the display window, epoch seconds' } }),
  end: number().integer().required().meta({ jsonSchema: { description: 'End of the display window, epoch seconds (inclusive)' } }),
}).noUnknown();

export const broadcastMessageSchema = object({
  _id: string().required(),
  message: string().defined(),
  color: string().required(),
  start: number().integer().required(),
  end: number().integer().required(),
});

export const broadcastMessageListSchema = array(broadcastMessageSchema).required();

export const createdSchema = object({ _id: string().required() });
export const updatedSchema = object({});
export const deletedSchema = object({ status: boolean().required() });
export const errorSchema = object({ name: string().defined(), description: string().defined() });
