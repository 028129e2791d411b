import { useQuery } from '@tanstack/react-query';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { api } from '../api.js';

type JsonSchema = RJSFSchema & { properties?: Record<string, JsonSchema>; items?: JsonSchema; $ref?: string };

interface OpenApiDocument {
  paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: JsonSchema }> }; 'x-vigie-right'?: string }>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

/** The server's own OpenAPI document (`GET /api/v2/openapi.json`): the forms are generated from its request schemas. */
export function useOpenApi() {
  return useQuery({ queryKey: ['openapi'], queryFn: () => api<OpenApiDocument>('/api/v2/openapi.json'), staleTime: Infinity });
}

/** Replaces `#/components/schemas/<name>` references by the schema itself, so the browser's validator needs nothing else. */
function inline(schema: JsonSchema, doc: OpenApiDocument, depth = 0): JsonSchema {
  if (depth > 20) return {};
  if (schema.$ref?.startsWith('#/components/schemas/')) {
    const target = doc.components?.schemas?.[schema.$ref.slice('#/components/schemas/'.length)];
    return target ? inline(target, doc, depth + 1) : {};
  }
  const copy: JsonSchema = { ...schema };
  if (schema.properties) copy.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, inline(v, doc, depth + 1)]));
  if (schema.items && typeof schema.items === 'object' && !Array.isArray(schema.items)) copy.items = inline(schema.items, doc, depth + 1);
  return copy;
}

/**
 * The JSON body schema of an operation (`path` as the document spells it, e.g. `/api/v2/idle-rule/{id}`), or undefined
 * when the route declares none.
 */
export function requestSchema(doc: OpenApiDocument, path: string, method: 'post' | 'put'): JsonSchema | undefined {
  const schema = doc.paths[path]?.[method]?.requestBody?.content?.['application/json']?.schema;
  return schema ? inline(schema, doc) : undefined;
}

const types = (schema: JsonSchema): string[] => (Array.isArray(schema.type) ? (schema.type as string[]) : schema.type ? [schema.type as string] : []);

/** An object the schema does not describe further (a pattern, an action's parameters): edited as JSON text. */
function opaque(schema: JsonSchema): boolean {
  const t = types(schema);
  if (t.includes('object') && !schema.properties) return true;
  if (t.includes('array') && schema.items && typeof schema.items === 'object' && !Array.isArray(schema.items)) return opaque(schema.items) || (schema.items.properties !== undefined && types(schema.items).includes('object'));
  return t.includes('object') && t.includes('null');
}

/**
 * What a form shows for a field instead of its API name: a human title and, when the schema's own description does not
 * say it for an operator, a help text. Kept next to the page that owns the form (the schemas stay the spec's).
 */
export type FieldLabels = Readonly<Record<string, { title: string; help?: string }>>;

/**
 * The form's layout: opaque objects and lists of objects get the JSON editor, long texts a text area; each field the
 * labels name gets its title and help.
 */
export function uiSchemaFor(schema: JsonSchema, labels: FieldLabels = {}): UiSchema {
  const ui: UiSchema = { 'ui:submitButtonOptions': { norender: true } };
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const label = labels[name];
    ui[name] = {
      ...(opaque(property) ? { 'ui:field': 'json' } : types(property).includes('string') && typeof property.maxLength === 'number' && property.maxLength > 1024 ? { 'ui:widget': 'textarea' } : {}),
      ...(label ? { 'ui:title': label.title, ...(label.help ? { 'ui:description': label.help } : {}) } : {}),
    };
  }
  return ui;
}

/** Keeps only what the schema accepts at the top level: a listed item carries read-only fields (dates, author) an update refuses. */
export function pick(data: Record<string, unknown>, schema: JsonSchema): Record<string, unknown> {
  const allowed = schema.properties ?? {};
  return Object.fromEntries(Object.entries(data).filter(([k, v]) => k in allowed && v !== undefined));
}

/**
 * The field a server error is about: the server's validation messages name it (`The priority field should be an
 * integer.`, `invalid idle rule: the type field is required`). Undefined when the message names no field of the form.
 */
export function fieldOfError(description: string, schema: JsonSchema): string | undefined {
  const properties = schema.properties ?? {};
  for (const match of description.matchAll(/\b([A-Za-z_][\w-]*)(?:\[\d+\])?(?:\.[\w-]+)*\s+field\b/g)) {
    const name = match[1];
    if (name !== undefined && name in properties) return name;
  }
  return undefined;
}

export type { JsonSchema };
