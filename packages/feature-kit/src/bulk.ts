import { array, number, object, string, type Schema } from 'yup';
import pMap from 'p-map';
import {
  HttpError,
  isHttpError,
  type ErrorWording,
  type HttpMethod,
  type RouteDefinition,
  type VigieContext,
} from '@vigie/kernel';
import { assertWithinInputBounds, requestBody } from '@vigie/input';
import { wordError } from '@vigie/kernel-http';
import { isJsonObject } from '@vigie/json';

/** Items one bulk request may carry unless the route says otherwise. */
export const maxBulkItems = 1000;

/** The outcome of one item of a bulk request: its id, the status its single route would answer, and why it failed. */
export interface BulkItemResult {
  /** The item's id: the one the work gave (a created rule's), else the `_id` sent, else "". */
  id: string;
  status: number;
  error?: string;
}

/** The 207 body of every bulk route, one result per item in the order sent. */
export const bulkResultSchema = array(
  object({
    id: string().defined().meta({ jsonSchema: { description: 'The item id (the created id for a creation), "" when the item had none' } }),
    status: number().integer().required().meta({ jsonSchema: { description: 'The status the single route answers for this item' } }),
    error: string().meta({ jsonSchema: { description: 'Why the item failed, in the single route\'s words; absent on success' } }),
  }),
).required();

/** What one item's work returns: the id to report (when it differs from the item's `_id`) and a status other than 200. */
export interface BulkItemOutcome {
  id?: string;
  status?: number;
}

export interface BulkOptions {
  /** The single route's error wording, so that each item's error reads as that route would answer it. */
  wording?: ErrorWording;
  /** Items run at once (results stay in the order sent); 1 by default: item after item. */
  concurrency?: number;
}

/** The `_id` an item names, or "". */
function itemId(item: unknown): string {
  return isJsonObject(item) && typeof item._id === 'string' ? item._id : '';
}

/**
 * The `_id` of a bulk item that stands for its single route's path id; a 400 item worded `missingMessage` (as that
 * route's resource words it) when absent or empty.
 */
export function requireBulkItemId(item: unknown, missingMessage: string): string {
  const id = itemId(item);
  if (id === '') throw new HttpError(400, missingMessage);
  return id;
}

/** One item's error as its single route would answer it; an unexpected error is logged and answered as a 500 item. */
function itemError(err: unknown, ctx: VigieContext, wording: ErrorWording | undefined): { status: number; error: string } {
  const worded = wordError(err, ctx as unknown as Parameters<typeof wordError>[1], [wording]);
  if (isHttpError(worded)) return { status: worded.status, error: worded.description };
  ctx.state.log.error({ err }, 'a bulk item failed');
  return { status: 500, error: 'Internal server error' };
}

/**
 * Runs `work` on each item and collects one `{id, status, error?}` per item, in the order sent: one failing item
 * never stops the others. Errors are worded as the single route words them (`options.wording`, then the kernel's).
 * Sets the answer's status to 207 (the spec: bulk routes answer 207 with a per-item result).
 */
export async function runBulk(
  ctx: VigieContext,
  items: readonly unknown[],
  work: (item: unknown, index: number) => Promise<BulkItemOutcome | void>,
  options: BulkOptions = {},
): Promise<BulkItemResult[]> {
  // p-map keeps the results in the order of the items, whatever order they finish in.
  const results = await pMap(
    items,
    async (item, index): Promise<BulkItemResult> => {
      try {
        const outcome = await work(item, index);
        return { id: outcome?.id ?? itemId(item), status: outcome?.status ?? 200 };
      } catch (err) {
        return { id: itemId(item), ...itemError(err, ctx, options.wording) };
      }
    },
    { concurrency: Math.max(1, options.concurrency ?? 1) },
  );
  ctx.status = 207;
  return results;
}

/** The items of a bulk body: a JSON array of 1 to `max` elements within the input bounds, else a 400 for the whole request. */
export function bulkBody(ctx: VigieContext, max: number = maxBulkItems): unknown[] {
  const body = requestBody(ctx);
  if (!Array.isArray(body)) throw new HttpError(400, 'The body must be a JSON array of items');
  if (body.length === 0) throw new HttpError(400, 'The body must hold at least one item');
  if (body.length > max) throw new HttpError(400, `A bulk request may carry at most ${max} items; this one has ${body.length}`);
  // The input bounds hold for the request as a whole: a value beyond them refuses it, not one item.
  assertWithinInputBounds(body);
  return body;
}

export interface BulkRouteSpec {
  method: HttpMethod;
  path: string;
  summary: string;
  description?: string;
  tags?: readonly string[];
  /** The right the user must hold (`<resource>:<action>`), as the single routes declare it. */
  right: string;
  /** One item, as the single route takes it (documentation; each item is validated by `work`). */
  itemSchema: Schema;
  maxItems?: number;
  /** Does one item as its single route would, throwing what that route would answer. */
  work(ctx: VigieContext, item: unknown, index: number): Promise<BulkItemOutcome | void>;
  wording?: ErrorWording;
  concurrency?: number;
}

/**
 * A bulk route: the body is an array of items (at most `maxItems`, 1,000 by default), each done by `work` as its single
 * route would do it; answers 207 with one `{id, status, error?}` per item, in order.
 */
export function defineBulkRoute(spec: BulkRouteSpec): RouteDefinition {
  const max = spec.maxItems ?? maxBulkItems;
  return {
    method: spec.method,
    path: spec.path,
    summary: spec.summary,
    right: spec.right,
    description: `${spec.description ?? ''}${spec.description ? ' ' : ''}The body is an array of 1 to ${max} items; each is validated and done as its single route does it, and one failing item never stops the others.`,
    ...(spec.tags ? { tags: spec.tags } : {}),
    requestDoc: array(spec.itemSchema).min(1).max(max),
    ...(spec.method === 'DELETE' ? { body: { onDelete: true } } : {}),
    ...(spec.wording ? { errors: spec.wording } : {}),
    responses: {
      207: { description: 'One `{id, status, error?}` per item, in the order sent', schema: bulkResultSchema },
      400: { description: 'The body is not a JSON array of 1 to ' + String(max) + ' items' },
    },
    handler: (ctx) => {
      const items = bulkBody(ctx, max);
      return runBulk(ctx, items, (item, index) => spec.work(ctx, item, index), {
        ...(spec.wording ? { wording: spec.wording } : {}),
        ...(spec.concurrency ? { concurrency: spec.concurrency } : {}),
      });
    },
  };
}
