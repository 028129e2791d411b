import type { Context, DefaultContext } from 'koa';

type Ctx = Context;
type ResponseHeader = Parameters<Context['response']['set']>[1];
/** Koa's response has `has`; its types do not declare it. */
type KoaResponse = Context['response'] & { has(field: string): boolean };

/**
 * Gives an application's context its own accessors for the request and response properties handlers and Koa itself
 * use on every request. Koa's `delegates` makes each of them through one shared closure per kind
 * (`this[target][name]`, `this[target][name] = val`): in an application that uses many names, that one keyed access
 * goes megamorphic, and V8 then answers each assignment through a setter with a runtime call (`ctx.body = value` in a
 * `@koa/router` handler cost about 1.5 µs). Here each property has its own inline cache; what each does is Koa's.
 */
export function nameContextAccessors(context: DefaultContext): void {
  Object.defineProperties(context, {
    body: { configurable: true, get(this: Ctx) { return this.response.body; }, set(this: Ctx, value: unknown) { this.response.body = value; } },
    status: { configurable: true, get(this: Ctx) { return this.response.status; }, set(this: Ctx, value: number) { this.response.status = value; } },
    message: { configurable: true, get(this: Ctx) { return this.response.message; }, set(this: Ctx, value: string) { this.response.message = value; } },
    type: { configurable: true, get(this: Ctx) { return this.response.type; }, set(this: Ctx, value: string) { this.response.type = value; } },
    length: { configurable: true, get(this: Ctx) { return this.response.length; }, set(this: Ctx, value: number) { this.response.length = value; } },
    writable: { configurable: true, get(this: Ctx) { return this.response.writable; } },
    headerSent: { configurable: true, get(this: Ctx) { return this.response.headerSent; } },
    method: { configurable: true, get(this: Ctx) { return this.request.method; }, set(this: Ctx, value: string) { this.request.method = value; } },
    path: { configurable: true, get(this: Ctx) { return this.request.path; }, set(this: Ctx, value: string) { this.request.path = value; } },
    url: { configurable: true, get(this: Ctx) { return this.request.url; }, set(this: Ctx, value: string) { this.request.url = value; } },
    querystring: { configurable: true, get(this: Ctx) { return this.request.querystring; }, set(this: Ctx, value: string) { this.request.querystring = value; } },
    query: { configurable: true, get(this: Ctx) { return this.request.query; }, set(this: Ctx, value: Ctx['request']['query']) { this.request.query = value; } },
    header: { configurable: true, get(this: Ctx) { return this.request.header; } },
    headers: { configurable: true, get(this: Ctx) { return this.request.headers; } },
    get: { configurable: true, writable: true, value(this: Ctx, field: string) { return this.request.get(field); } },
    has: { configurable: true, writable: true, value(this: Ctx, field: string) { return (this.response as KoaResponse).has(field); } },
    remove: { configurable: true, writable: true, value(this: Ctx, field: string) { this.response.remove(field); } },
    set: {
      configurable: true,
      writable: true,
      value(this: Ctx, field: string | Record<string, ResponseHeader>, value?: ResponseHeader) {
        if (typeof field === 'string') this.response.set(field, value as ResponseHeader);
        else this.response.set(field);
      },
    },
  });
}
