import { convertSchema } from '@sodaru/yup-to-json-schema';
import type { Schema } from 'yup';
import type { RouteDefinition, RouterRouteEntry } from '@vigie/kernel';

export interface CatalogRoute {
  featureId: string;
  route: RouteDefinition;
}

export interface DocumentInfo {
  title: string;
  version: string;
  description?: string;
}

type JsonObject = Record<string, unknown>;

const errorSchemaRef = { $ref: '#/components/schemas/Error' };

/**
 * The converter gives every yup object the default yup builds from its fields (`default: {}`…): noise, so it goes.
 * A `mixed()` schema comes out with `type: []`, which would match nothing: no `type` is what it means.
 */
function withoutObjectDefaults(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutObjectDefaults);
  if (typeof node !== 'object' || node === null) return node;
  const isObjectSchema = (node as JsonObject).type === 'object';
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'default' && isObjectSchema) continue;
    if (key === 'type' && Array.isArray(value) && value.length === 0) continue;
    out[key] = withoutObjectDefaults(value);
  }
  return out;
}

/** yup ⇒ JSON Schema; a schema the converter cannot express becomes an open schema that says so. */
function jsonSchema(schema: Schema | undefined): JsonObject | undefined {
  if (!schema) return undefined;
  try {
    return withoutObjectDefaults(convertSchema(schema as never)) as JsonObject;
  } catch (err) {
    return { description: `schema not expressible in JSON Schema: ${(err as Error).message}` };
  }
}

/** `/api/v2/x/:id` ⇒ `/api/v2/x/{id}`; `*id` (rest of the path) ⇒ `{id}`; no trailing slash. */
export function openApiPath(path: string): { path: string; parameters: { name: string; rest: boolean }[] } {
  const parameters: { name: string; rest: boolean }[] = [];
  const converted = path.replace(/([:*])([A-Za-z0-9_]+)/g, (_, kind: string, name: string) => {
    parameters.push({ name, rest: kind === '*' });
    return `{${name}}`;
  });
  return { path: converted.length > 1 ? converted.replace(/\/+$/, '') : converted, parameters };
}

function queryParameters(schema: Schema | undefined): JsonObject[] {
  const converted = jsonSchema(schema);
  const properties = (converted?.properties ?? {}) as Record<string, JsonObject>;
  const required = new Set((converted?.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({ name, in: 'query', required: required.has(name), schema: property }));
}

function mediaTypes(route: RouteDefinition): string[] {
  // A route reading its own body (`body: false`) and documenting it with a schema (`requestDoc`) takes JSON.
  const accept = route.body === false ? (route.requestDoc ? ['json'] : []) : (route.body?.accept ?? ['json']);
  return accept.map((m) => (m === 'json' ? 'application/json' : m === 'form' ? 'application/x-www-form-urlencoded' : 'text/plain'));
}

function operation(entry: CatalogRoute, path: string, parameters: { name: string; rest: boolean }[]): JsonObject {
  const { route } = entry;
  const responses: Record<string, JsonObject> = {};
  for (const [status, doc] of Object.entries(route.responses ?? {})) {
    const schema = jsonSchema(doc.schema);
    responses[status] = {
      description: doc.description,
      ...(schema || doc.contentType ? { content: { [doc.contentType ?? 'application/json']: schema ? { schema } : {} } } : {}),
    };
  }
  if (Object.keys(responses).length === 0) responses['200'] = { description: 'Success' };
  if (!route.public) responses['401'] = { description: 'Missing or invalid credentials', content: { 'application/json': { schema: errorSchemaRef } } };
  if (route.right !== undefined) responses['403'] ??= forbiddenResponse(route.right);
  responses.default = { description: 'Error', content: { 'application/json': { schema: errorSchemaRef } } };

  const op: JsonObject = {
    operationId: `${route.method.toLowerCase()}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`,
    summary: route.summary ?? `${route.method} ${path}`,
    tags: route.tags ? [...route.tags] : [entry.featureId],
    parameters: [...pathParameters(parameters), ...queryParameters(route.querySchema)],
    responses,
  };
  const description = withRight(route.description, route.right);
  if (description) op.description = description;
  if (route.right !== undefined) op['x-vigie-right'] = route.right;
  if (route.public) op.security = [];
  const media = mediaTypes(route);
  const requestSchema = route.requestSchema ?? route.requestDoc;
  if (['POST', 'PUT', 'PATCH'].includes(route.method) && (requestSchema || media.length > 0)) {
    const schema = jsonSchema(requestSchema) ?? {};
    const content = Object.fromEntries((media.length > 0 ? media : ['application/octet-stream']).map((m) => [m, { schema }]));
    op.requestBody = { required: route.body !== false && route.body?.required === true, content };
  }
  return op;
}

/** The description, with a last line naming the right the route needs (also given as `x-vigie-right`). */
function withRight(description: string | undefined, right: string | undefined): string | undefined {
  if (right === undefined) return description;
  const line = `Requires the right \`${right}\`.`;
  return description ? `${description}\n\n${line}` : line;
}

function forbiddenResponse(right: string): JsonObject {
  return { description: `The user lacks the right \`${right}\``, content: { 'application/json': { schema: errorSchemaRef } } };
}

function pathParameters(parameters: { name: string; rest: boolean }[]): JsonObject[] {
  return parameters.map((p) => ({
    name: p.name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
    ...(p.rest ? { description: 'May contain "/", raw or URL-encoded' } : {}),
  }));
}

/**
 * A route of a feature's `@koa/router` router: its author declared no schemas, so the operation says only what the
 * kernel guarantees (authentication, error envelope); without a description it is marked `x-vigie-undocumented`.
 */
function routerOperation(entry: RouterRouteEntry, path: string, parameters: { name: string; rest: boolean }[]): JsonObject {
  const op: JsonObject = {
    operationId: `${entry.method.toLowerCase()}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`,
    summary: entry.doc?.summary ?? `${entry.method} ${path} (undocumented)`,
    tags: entry.doc?.tags ? [...entry.doc.tags] : [entry.featureId],
    parameters: pathParameters(parameters),
    responses: {
      '200': { description: 'Answered by a @koa/router router of the feature' },
      '401': { description: 'Missing or invalid credentials', content: { 'application/json': { schema: errorSchemaRef } } },
      ...(entry.right !== undefined ? { '403': forbiddenResponse(entry.right) } : {}),
      default: { description: 'Error', content: { 'application/json': { schema: errorSchemaRef } } },
    },
  };
  const description = withRight(entry.doc?.description, entry.right);
  if (description) op.description = description;
  if (entry.right !== undefined) op['x-vigie-right'] = entry.right;
  if (!entry.doc) op['x-vigie-undocumented'] = true;
  return op;
}

/** The OpenAPI 3.1 document of every composed route, and of the routes of the features' `@koa/router` routers. */
export function buildOpenApiDocument(routes: readonly CatalogRoute[], info: DocumentInfo, routerRoutes: readonly RouterRouteEntry[] = []): JsonObject {
  const paths: Record<string, Record<string, JsonObject>> = {};
  for (const entry of routes) {
    const list = typeof entry.route.path === 'string' ? [entry.route.path] : entry.route.path;
    for (const raw of list) {
      const { path, parameters } = openApiPath(raw);
      const item = (paths[path] ??= {});
      item[entry.route.method.toLowerCase()] = operation(entry, path, parameters);
    }
  }
  for (const entry of routerRoutes) {
    // path-to-regexp optional groups (`{/:format}`) are documented as if present.
    const { path, parameters } = openApiPath(entry.path.replace(/[{}]/g, ''));
    const item = (paths[path] ??= {});
    item[entry.method.toLowerCase()] ??= routerOperation(entry, path, parameters);
  }
  const sortedPaths = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)));
  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version, ...(info.description ? { description: info.description } : {}) },
    paths: sortedPaths,
    components: {
      schemas: {
        Error: {
          type: 'object',
          required: ['name', 'description'],
          properties: { name: { type: 'string' }, description: { type: 'string' } },
        },
      },
      securitySchemes: {
        basic: { type: 'http', scheme: 'basic' },
        authkeyQuery: { type: 'apiKey', in: 'query', name: 'authkey' },
        authkeyHeader: { type: 'apiKey', in: 'header', name: 'x-canopsis-authkey' },
      },
    },
    security: [{ basic: [] }, { authkeyQuery: [] }, { authkeyHeader: [] }],
  };
}
