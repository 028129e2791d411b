import { array, boolean, number, object, string } from 'yup';
import { rightPattern } from '@vigie/kernel';
import { idField, listField, nameField, textField } from '@vigie/input';

const contactFields = {
  mail: nameField(string()),
  firstname: nameField(string()),
  lastname: nameField(string()),
};

const password = nameField(string());
const roleNames = listField(array(idField(string().required())), 100);
const rightList = listField(array(string().required().matches(rightPattern, '${path} must be <resource>:<action>')), 1000);

export const userCreateSchema = object({
  name: idField(string().required()),
  password: password.required(),
  roles: roleNames.required(),
  enabled: boolean(),
  ...contactFields,
})
  .noUnknown()
  .required();

export const userUpdateSchema = object({
  password,
  roles: roleNames,
  enabled: boolean(),
  ...contactFields,
})
  .noUnknown()
  .required();

export const accountUpdateSchema = object({
  current_password: password.required(),
  password,
  ...contactFields,
})
  .noUnknown()
  .required();

export const usersQuerySchema = object({
  search: nameField(string()),
  page: number().integer().min(1).max(1_000_000).default(1),
  limit: number().integer().min(1).max(1000).default(50),
});

export const userSchema = object({
  _id: string().required(),
  role: string().required(),
  roles: array(string().required()),
  enabled: boolean().required(),
  external: boolean().required(),
  created: number().required(),
  updated: number().required(),
  ...contactFields,
});

export const userPageSchema = object({
  data: array(userSchema).required(),
  meta: object({ page: number().required(), per_page: number().required(), page_count: number().required(), total_count: number().required() }).required(),
});

export const roleBodySchema = object({
  description: textField(string()),
  rights: rightList.required(),
})
  .noUnknown()
  .required();

export const roleCreateSchema = roleBodySchema.shape({ name: idField(string().required()) });

export const roleSchema = object({
  name: string().required(),
  // May be empty: required() would refuse ''.
  description: string().defined(),
  rights: array(string().required()).required(),
  builtIn: boolean().required(),
});

export const apiKeyCreateSchema = object({
  label: nameField(string()),
  expires: number().integer().positive().nullable(),
  rights: rightList,
})
  .noUnknown()
  .required();

export const apiKeySchema = object({
  id: string().required(),
  user: string().required(),
  label: string().defined(),
  prefix: string().nullable(),
  created: number().required(),
  expires: number().nullable(),
  rights: array(string().required()).nullable(),
});

export const createdApiKeySchema = apiKeySchema.shape({ key: string().required().meta({ description: 'The key; shown only in this answer' }) });
