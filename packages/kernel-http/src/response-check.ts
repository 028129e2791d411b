import { Readable } from 'node:stream';
import { ValidationError } from 'yup';
import type { MountedRoute, RouteResponseDoc, VigieContext } from '@vigie/kernel';

/** An answer that contradicts the response schema its route declares for the status. */
export interface ResponseMismatch {
  featureId: string;
  method: string;
  /** The route's path(s) as declared. */
  path: string;
  status: number;
  /** yup's messages, path-qualified (`data[0].name is a required field`). */
  problems: string[];
}

/**
 * The value a client receives, as `doc` describes it: the JSON value for a JSON answer, the text for an answer of the
 * media type the doc names (`text/plain`); undefined for anything else (bytes, streams, an HTML page answered instead).
 */
function answered(ctx: VigieContext, result: unknown, doc: RouteResponseDoc): unknown {
  const body: unknown = result ?? ctx.body;
  if (body === undefined || Buffer.isBuffer(body) || body instanceof Readable) return undefined;
  if (doc.contentType !== undefined) return ctx.response.is(doc.contentType) && typeof body === 'string' ? body : undefined;
  if (!ctx.response.is('json')) return undefined;
  // What the client parses: dates as text, class instances as their JSON.
  return JSON.parse(typeof body === 'string' ? body : JSON.stringify(body)) as unknown;
}

/**
 * Checks a route's answers against the response schemas it declares (strictly: the value as sent, nothing cast),
 * telling `report` of each mismatch. For tests: response schemas document the API, and this keeps them true.
 */
export function responseChecker(mounted: MountedRoute, report: (mismatch: ResponseMismatch) => void): (ctx: VigieContext, result: unknown) => void {
  const { route, featureId } = mounted;
  const path = typeof route.path === 'string' ? route.path : route.path.join(' | ');
  return (ctx, result) => {
    const doc = route.responses?.[ctx.status];
    const schema = doc?.schema;
    if (!doc || !schema) return;
    const value = answered(ctx, result, doc);
    if (value === undefined) return;
    try {
      schema.validateSync(value, { strict: true, abortEarly: false });
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      const problems = err.inner.length > 0 ? err.inner.flatMap((e) => e.errors) : err.errors;
      report({ featureId, method: route.method, path, status: ctx.status, problems });
    }
  };
}
