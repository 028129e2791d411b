import { Validator, type OutputUnit, type Schema } from '@cfworker/json-schema';
import {
  createErrorHandler,
  toErrorSchema,
  unwrapErrorHandler,
  validationDataMerge,
  type CustomValidator,
  type ErrorTransformer,
  type RJSFSchema,
  type RJSFValidationError,
  type UiSchema,
  type ValidationData,
  type ValidatorType,
} from '@rjsf/utils';

// Keywords that only summarise the errors of their subschemas: the leaf errors say what is wrong and where.
const summaries = new Set(['properties', 'items', 'prefixItems', 'additionalItems', 'allOf', 'anyOf', 'oneOf', '$ref', 'unevaluatedProperties', 'unevaluatedItems', 'dependentSchemas']);

/** `#/actions/0/type` → `.actions.0.type`, the property path RJSF places errors by. */
const property = (instanceLocation: string, extra?: string) => {
  const segments = instanceLocation.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  if (extra) segments.push(extra);
  return segments.length === 0 ? '.' : `.${segments.join('.')}`;
};

function toRjsfError(unit: OutputUnit): RJSFValidationError {
  // A missing required property belongs to that property's field, as the form shows it.
  const missing = unit.keyword === 'required' ? /"([^"]+)"/.exec(unit.error)?.[1] : undefined;
  const path = property(unit.instanceLocation, missing);
  const message = missing ? 'is required' : unit.error.replace(/^Instance /, 'The value ');
  return { name: unit.keyword, property: path, message, stack: `${path} ${message}`, schemaPath: unit.keywordLocation };
}

/**
 * RJSF's validator over @cfworker/json-schema, which interprets schemas instead of compiling them to functions: the
 * console's Content-Security-Policy forbids `eval`, which Ajv's compiled validators need.
 */
class InterpretingValidator implements ValidatorType {
  readonly #compiled = new WeakMap<object, Validator>();

  #validator(schema: RJSFSchema): Validator {
    let validator = this.#compiled.get(schema);
    if (!validator) {
      validator = new Validator(schema as Schema, '2020-12', false);
      this.#compiled.set(schema, validator);
    }
    return validator;
  }

  #errors(schema: RJSFSchema, formData: unknown): RJSFValidationError[] {
    return this.#validator(schema)
      .validate(formData === undefined ? {} : formData)
      .errors.filter((unit) => !summaries.has(unit.keyword))
      .map(toRjsfError);
  }

  validateFormData(formData: unknown, schema: RJSFSchema, customValidate?: CustomValidator, transformErrors?: ErrorTransformer, uiSchema?: UiSchema): ValidationData<unknown> {
    let errors = this.#errors(schema, formData);
    if (transformErrors) errors = transformErrors(errors, uiSchema);
    const data: ValidationData<unknown> = { errors, errorSchema: toErrorSchema(errors) };
    if (!customValidate) return data;
    const own = customValidate(formData, createErrorHandler(formData), uiSchema);
    return validationDataMerge(data, unwrapErrorHandler(own));
  }

  isValid(schema: RJSFSchema, formData: unknown): boolean {
    try {
      return this.#validator(schema).validate(formData).valid;
    } catch {
      return false;
    }
  }

  rawValidation<Result = RJSFValidationError>(schema: RJSFSchema, formData?: unknown): { errors?: Result[]; validationError?: Error } {
    try {
      return { errors: this.#errors(schema, formData) as Result[] };
    } catch (error) {
      return { validationError: error instanceof Error ? error : new Error(String(error)) };
    }
  }
}

export const validator = new InterpretingValidator();

/** Also the module @rjsf/core's test helper names (`@rjsf/validator-ajv8`), aliased here by the Vite configuration. */
export default validator;
