import { array, mixed, number, object, string, type InferType } from 'yup';
import { idField, listField, nameField, textField } from '@vigie/input';
import { patternListSchema } from '@vigie/rule-schemas';

/** The value types an info may declare (optional; see the README on `type`). */
export const infoValueTypes = ['string', 'integer', 'boolean'] as const;
export type InfoValueType = (typeof infoValueTypes)[number];

const valueMatches: Record<InfoValueType, (value: unknown) => boolean> = {
  string: (value) => typeof value === 'string',
  integer: (value) => Number.isInteger(value),
  boolean: (value) => typeof value === 'boolean',
};

function isInfoValue(value: unknown): boolean {
  return value === null || Object.values(valueMatches).some((matches) => matches(value));
}

const infoSchema = object({
  name: nameField(string())
    .defined('each element of the infos array should have a field "name"')
    .nonNullable('${path} should be a string')
    .typeError('${path} should be a string')
    .min(1, '${path} should not be empty'),
  // The engine renders string values as templates (REFERENCE §5.11).
  value: mixed<string | number | boolean>()
    .nullable()
    .defined('each element of the infos array should have a field "value"')
    .test('info-value', '${path} should be a string, an integer, a boolean or null', isInfoValue),
  type: string()
    .typeError('${path} should be one of string, integer, boolean')
    .oneOf(infoValueTypes, '${path} should be one of string, integer, boolean'),
})
  .noUnknown('the following fields are invalid in the elements of the infos array: ${unknown}')
  .typeError('${path} should be an object')
  .test('value-of-type', (info, context) => {
    const type = info?.type as InfoValueType | undefined;
    if (!info || !type || info.value === null || !(infoValueTypes as readonly string[]).includes(type)) return true;
    return valueMatches[type](info.value) || context.createError({ path: `${context.path}.value`, message: `\${path} should be ${type === 'integer' ? 'an' : 'a'} ${type}, as its type says` });
  });

/** POST and PUT bodies. `author` and the dates are accepted (they come back from GET) and ignored. */
export const dynamicInfosInputSchema = object({
  _id: idField(string()).nonNullable('_id should be a string').typeError('_id should be a string').min(1, '_id should not be empty'),
  name: nameField(string()).defined('the name field is required').nonNullable('name should be a string').typeError('name should be a string').min(1, 'name should not be empty'),
  description: textField(string()).nullable().typeError('description should be a string'),
  infos: listField(array(infoSchema))
    .defined('the infos field is required')
    .nonNullable('infos should be a list')
    .typeError('infos should be a list')
    .test('unique-info-names', (infos, context) => {
      const seen = new Set<string>();
      for (const info of infos ?? []) {
        const name = info?.name;
        if (typeof name !== 'string') continue;
        if (seen.has(name)) return context.createError({ message: () => `infos holds the name ${JSON.stringify(name)} twice` });
        seen.add(name);
      }
      return true;
    }),
  alarm_patterns: patternListSchema(),
  entity_patterns: patternListSchema(),
  disable_during_periods: listField(array(nameField(string()).typeError('${path} should be a string').nonNullable('${path} should be a string')))
    .nullable()
    .typeError('disable_during_periods should be a list of strings'),
  author: mixed(),
  creation_date: mixed(),
  last_modified_date: mixed(),
})
  .noUnknown('the following keys are invalid: ${unknown}')
  .nonNullable('expected a JSON object')
  .typeError('expected a JSON object');

/**
 * A rule as the API returns it and as `dynamic_infos` stores it, in the shape the engine reads (REFERENCE §4.12,
 * §5.11): the body, with what the service sets. The stored and API types are inferred from it.
 */
export const dynamicInfosRuleSchema = dynamicInfosInputSchema.shape({
  _id: idField(string()).required(),
  // "" when not given: `defined`, as yup's `required` refuses "".
  description: textField(string()).defined(),
  alarm_patterns: patternListSchema().defined(),
  entity_patterns: patternListSchema().defined(),
  author: string().defined(),
  creation_date: number().integer().required(),
  last_modified_date: number().integer().required(),
});

export type DynamicInfosRule = InferType<typeof dynamicInfosRuleSchema>;
/** One info of a rule; `type` is stored only when sent. */
export type DynamicInfo = DynamicInfosRule['infos'][number];

/** The fields `search` looks in when `search_fields` names none: the spec's list. */
export const defaultSearchFields = ['_id', 'name', 'description', 'infos.name', 'infos.value'] as const;
/** What `search_fields` may name: the spec's list and `author`, which the original also accepted (REFERENCE §4.12). */
export const searchableFields = [...defaultSearchFields, 'author'] as const;
export const sortKeys = ['name', 'description', 'author', 'creation_date', 'last_modified_date'] as const;
/** Longest `search` text; escaped, it stays within the store's regular-expression bound. */
export const maxSearchLength = 256;

const nonNegativeInteger = (name: string) =>
  string()
    .typeError(`${name} should be a non-negative integer`)
    .matches(/^[0-9]{1,9}$/, `${name} should be a non-negative integer`);

/** The list route's query (REFERENCE §4.12); other parameters are ignored. */
export const listQuerySchema = object({
  search: string().typeError('search should be given once').max(maxSearchLength, `search should be at most ${maxSearchLength} characters`),
  search_fields: string()
    .typeError('search_fields should be given once')
    .meta({ jsonSchema: { description: `Comma-separated among ${searchableFields.join(', ')}; by default ${defaultSearchFields.join(', ')}` } }),
  limit: nonNegativeInteger('limit').meta({ jsonSchema: { description: '0 or absent: no limit' } }),
  offset: nonNegativeInteger('offset'),
  skip: nonNegativeInteger('skip').meta({ jsonSchema: { description: 'Alias of offset (the original name); offset wins' } }),
  sort_key: string()
    .typeError('sort_key should be given once')
    .meta({ jsonSchema: { description: `One of ${sortKeys.join(', ')}; _id otherwise` } }),
  sort_dir: string().typeError('sort_dir should be either ASC or DESC').oneOf(['ASC', 'DESC', ''], 'sort_dir should be either ASC or DESC'),
});

export const ruleListSchema = object({ count: number().integer().required(), rules: array(dynamicInfosRuleSchema).required() });
