import type { Schema } from 'yup';
import {
  ErrorCodes,
  VigieError,
  type QueryOptions,
  type RouteDefinition,
  type RouteInput,
  type VigieContext,
} from '@vigie/kernel';
import { requestBody, validate } from '@vigie/input';
import { bodyMethods } from './body.js';

/** The input of a route that declares no schema: one shared object, so that such routes pay nothing per request. */
export const noInput: RouteInput<undefined, undefined> = Object.freeze({ body: undefined, query: undefined });

/** Each parameter once: `?limit=1&limit=2` is ambiguous, not the first or the last of them. */
function assertSingleValued(query: VigieContext['query']): void {
  for (const [key, value] of Object.entries(query)) {
    if (Array.isArray(value)) throw new VigieError(ErrorCodes.Validation, `${key} is given more than once`);
  }
}

function queryReader(schema: Schema, options: QueryOptions): (ctx: VigieContext) => unknown {
  const strict = options.strict === true;
  return (ctx) => {
    const query = ctx.query;
    if (options.singleValued) assertSingleValued(query);
    return validate(schema, query, { strict });
  };
}

/**
 * What the kernel runs between reading the body and calling the handler: the route's `requestSchema` and
 * `querySchema` checks, as one function built once per route; `undefined` for a route without schemas, whose requests
 * then skip validation altogether. The body is checked only for the methods that carry one, after `prepareBody`.
 */
export function inputReader(route: RouteDefinition): ((ctx: VigieContext) => RouteInput<unknown, unknown>) | undefined {
  const bodySchema = route.requestSchema;
  const prepareBody = route.prepareBody?.bind(route);
  const readQuery = route.querySchema ? queryReader(route.querySchema, route.queryOptions ?? {}) : undefined;
  if (!bodySchema && !readQuery) return undefined;
  return (ctx) => {
    // The query first, as the checks the handlers made did.
    const query = readQuery ? readQuery(ctx) : undefined;
    let body: unknown;
    if (bodySchema && bodyMethods.has(ctx.req.method ?? '')) {
      const parsed = requestBody(ctx);
      body = validate(bodySchema, prepareBody ? prepareBody(parsed) : parsed, { strict: true });
    }
    return { body, query };
  };
}
