import { array, boolean, number, object, string, type InferType } from 'yup';
import { textField } from '@vigie/input';

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

/** What a client sends to create or replace a message, once validated. */
export type BroadcastMessageInput = InferType<typeof broadcastMessageInputSchema>;

/** A message as the API shows it: the input and its id. */
export const broadcastMessageSchema = broadcastMessageInputSchema.shape({ _id: string().required() });
export type BroadcastMessage = InferType<typeof broadcastMessageSchema>;

export const broadcastMessageListSchema = array(broadcastMessageSchema).required();

export const createdSchema = object({ _id: string().required() });
export const updatedSchema = object({});
export const deletedSchema = object({ status: boolean().required() });
export const errorSchema = object({ name: string().defined(), description: string().defined() });
