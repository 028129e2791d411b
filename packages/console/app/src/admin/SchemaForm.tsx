import Form from '@rjsf/core';
import { getUiOptions, type ErrorSchema, type FieldProps, type RegistryFieldsType } from '@rjsf/utils';
import { validator } from './validator.js';
import { useId, useMemo, useState, type ReactNode } from 'react';
import { ApiError } from '../api.js';
import { fieldOfError, uiSchemaFor, type FieldLabels, type JsonSchema } from './openapi.js';

/** An object or list the schema does not detail (a pattern, actions): edited as JSON text, checked as it is typed. */
function JsonField({ formData, onChange, fieldPathId, name, schema, uiSchema, required, rawErrors }: FieldProps) {
  const [text, setText] = useState(() => (formData === undefined ? '' : JSON.stringify(formData, null, 2)));
  const [problem, setProblem] = useState<string | null>(null);
  const id = fieldPathId.$id;
  const options = getUiOptions(uiSchema);
  const title = options.title ?? schema.title ?? name;
  const description = options.description ?? schema.description;
  return (
    <div className="json-field">
      <label htmlFor={id}>
        {title}
        {required ? ' *' : ''} <span className="muted">(JSON)</span>
      </label>
      {description && (
        <p className="field-description" id={`${id}__description`}>
          {description}
        </p>
      )}
      <textarea
        id={id}
        rows={4}
        value={text}
        spellCheck={false}
        aria-invalid={problem !== null || (rawErrors?.length ?? 0) > 0}
        aria-describedby={description ? `${id}__description` : undefined}
        onChange={(e) => {
          setText(e.target.value);
          if (e.target.value.trim() === '') {
            setProblem(null);
            onChange(undefined, fieldPathId.path);
            return;
          }
          try {
            onChange(JSON.parse(e.target.value) as unknown, fieldPathId.path);
            setProblem(null);
          } catch {
            setProblem('Not valid JSON yet');
          }
        }}
      />
      {problem && <p className="field-error">{problem}</p>}
    </div>
  );
}

const fields: RegistryFieldsType = { json: JsonField };

/** Where a failed save's message goes: next to the field it names, or above the form. */
export interface ServerProblem {
  field?: string;
  message: string;
}

export function serverProblem(error: unknown, schema: JsonSchema): ServerProblem {
  const message = error instanceof ApiError ? `${error.description}${error.status === 403 ? ' (refused by the server)' : ''}` : String(error);
  const field = error instanceof ApiError && error.status === 400 ? fieldOfError(error.description, schema) : undefined;
  return field ? { field, message } : { message };
}

/**
 * A form generated from a route's JSON schema (as the server's OpenAPI document gives it) and validated in the browser
 * against the same schema; a server error naming a field is shown at that field.
 */
export function SchemaForm({
  schema,
  labels,
  initial,
  problem,
  onSubmit,
  onChange,
  children,
}: {
  schema: JsonSchema;
  /** Human titles and help texts of the fields (the schema's names otherwise). */
  labels: FieldLabels;
  initial: Record<string, unknown>;
  problem: ServerProblem | null;
  onSubmit: (data: Record<string, unknown>) => void;
  onChange?: (data: Record<string, unknown>) => void;
  children: ReactNode;
}) {
  const idPrefix = useId().replace(/[^a-zA-Z0-9]/g, '');
  const extraErrors = problem?.field ? ({ [problem.field]: { __errors: [problem.message] } } as ErrorSchema) : undefined;
  return (
    <>
      {problem && !problem.field && (
        <p role="alert" className="error">
          {problem.message}
        </p>
      )}
      <Form
        schema={schema}
        uiSchema={useMemo(() => uiSchemaFor(schema, labels), [schema, labels])}
        formData={initial}
        validator={validator}
        fields={fields}
        extraErrors={extraErrors}
        idPrefix={`f${idPrefix}`}
        showErrorList={false}
        noHtml5Validate
        onChange={(e) => onChange?.(e.formData as Record<string, unknown>)}
        onSubmit={(e) => onSubmit(e.formData as Record<string, unknown>)}
      >
        {children}
      </Form>
    </>
  );
}
