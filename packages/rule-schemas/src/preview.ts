import { array, boolean, mixed, number, object, string, type AnyObject, type ObjectSchema, type Schema } from 'yup';
import { defineRoute, type RouteDefinition, type RouteResponseDoc, type VigieContext } from '@vigie/kernel';

/** The largest first page a preview answers with, and the one it answers when `limit` is not given. */
export const previewPageLimit = { max: 200, default: 20 } as const;

/** The query of every `POST …/preview`: how many of the selected items the answer lists. */
export const previewQuerySchema = object({
  limit: number()
    .integer('limit should be an integer')
    .typeError('limit should be an integer')
    .min(1, 'limit should be at least 1')
    .max(previewPageLimit.max, `limit should be at most ${previewPageLimit.max}`)
    .default(previewPageLimit.default),
});

/** What a preview selects: open alarms, entities, or the recently processed events the rule would have matched. */
export type PreviewSubject = 'alarms' | 'entities' | 'events';

/** What a preview selects now: how many, and the first page of them in a stable order. */
export interface PreviewPage<T> {
  subject: PreviewSubject;
  /** How many items the rule selects among those scanned. */
  count: number;
  /** Items scanned (every open alarm, every entity, every sampled event). */
  scanned: number;
  /** The first `limit` selected items. */
  data: T[];
}

/**
 * Counts the items a rule selects and keeps only the first page of them, so that a preview over any number of items
 * holds at most `limit` of them in memory. Every preview source (alarms, entities, recent events) goes through it.
 * Without `order` the page is the first items offered; with it, the smallest in that order whatever the order of
 * the scan (so that a source need not sort what it scans).
 */
export class PreviewCollector<T> {
  #count = 0;
  #scanned = 0;
  readonly #data: T[] = [];

  constructor(
    readonly subject: PreviewSubject,
    private readonly limit: number,
    private readonly order?: (a: T, b: T) => number,
  ) {}

  /** Notes one scanned item; `selected` says whether the rule selects it, `present` builds its entry when kept. */
  offer(selected: boolean, present: () => T): void {
    this.#scanned++;
    if (!selected) return;
    this.#count++;
    const order = this.order;
    if (!order) {
      if (this.#data.length < this.limit) this.#data.push(present());
      return;
    }
    const item = present();
    const data = this.#data;
    if (data.length === this.limit && order(item, data[data.length - 1] as T) >= 0) return;
    // Binary insertion into the page, kept sorted; the largest drops out when the page is full.
    let low = 0;
    let high = data.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (order(data[middle] as T, item) <= 0) low = middle + 1;
      else high = middle;
    }
    data.splice(low, 0, item);
    if (data.length > this.limit) data.pop();
  }

  page(): PreviewPage<T> {
    return { subject: this.subject, count: this.#count, scanned: this.#scanned, data: this.#data };
  }
}

/** The answer of a preview: the page fields with `itemSchema` for its entries, plus what a resource adds (`extra`). */
export function previewAnswerSchema(itemSchema: Schema, extra: Record<string, Schema> = {}): ObjectSchema<AnyObject> {
  return object({
    subject: string().oneOf(['alarms', 'entities', 'events']).required(),
    count: number().integer().required(),
    scanned: number().integer().required(),
    data: array(itemSchema).required(),
    ...extra,
  });
}

/** An open alarm as previews list it. */
export const previewAlarmSchema = object({
  _id: string().required(),
  entity_id: string().required(),
  connector: string().required(),
  connector_name: string().required(),
  component: string().required(),
  resource: string().defined(),
  state: number().integer().required(),
  status: number().integer().required(),
  creation_date: number().required(),
  last_event_date: number().required(),
  last_update_date: number().required(),
});

/** An entity as previews list it. */
export const previewEntitySchema = object({
  _id: string().required(),
  name: string().defined(),
  type: string().defined(),
  enabled: boolean().required(),
});

/** A recently processed event as previews list it (the event as accepted, before the event filter). */
export const previewEventSchema = object({
  received_at: number().required(),
  event: mixed().required(),
});

interface PreviewRouteOptions<B> {
  /** The POST route that creates the resource: the preview validates its body exactly as it does. */
  create: RouteDefinition<B, unknown>;
  path: string;
  /** What the rule resource is, for the summary (`an idle rule`). */
  resource: string;
  /** Documents what the answer adds to the page, and the entries' shape. */
  answer: ObjectSchema<AnyObject>;
  description: string;
  handler(ctx: VigieContext, body: B, limit: number): Promise<unknown>;
}

/**
 * `POST <resource>/preview`: the rule as a create takes it (same schema, same preparation and early checks, same
 * error wording), nothing stored, under the rule's read right (`<resource>:read` for a create's `<resource>:write`); the answer says what the rule selects now. One route shape for every rule resource.
 */
export function previewRoute<B>(options: PreviewRouteOptions<B>): RouteDefinition<B, { limit: number }> {
  const { create } = options;
  // The create route's error answers are the preview's too (its validation is the same).
  const responses: Record<number, RouteResponseDoc> = { ...create.responses, 200: { description: 'What the rule selects now', schema: options.answer } };
  return defineRoute({
    method: 'POST',
    path: options.path,
    // The rule's own read right: a preview reads what the rule would select and stores nothing.
    ...(create.right === undefined ? {} : { right: create.right.replace(/:write$/, ':read') }),
    summary: `Preview what ${options.resource} would select now, without saving it`,
    description: `${options.description} The body is validated as the create route validates it; nothing is stored.`,
    tags: create.tags ?? [],
    ...(create.body === undefined ? {} : { body: create.body }),
    ...(create.errors ? { errors: create.errors } : {}),
    ...(create.requestSchema ? { requestSchema: create.requestSchema } : {}),
    ...(create.requestDoc ? { requestDoc: create.requestDoc } : {}),
    ...(create.prepareBody ? { prepareBody: create.prepareBody.bind(create) } : {}),
    ...(create.preValidation ? { preValidation: create.preValidation.bind(create) } : {}),
    querySchema: previewQuerySchema,
    responses,
    handler: (ctx, { body, query }) => options.handler(ctx, body, query.limit),
  });
}
