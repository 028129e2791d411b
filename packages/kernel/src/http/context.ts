import type { Context } from 'koa';
import type { VigieContext } from '../feature.js';

/** The body the kernel parsed for this request (undefined when there was none, or the route reads the stream). */
export function requestBody(ctx: Context | VigieContext): unknown {
  return (ctx.request as { body?: unknown }).body;
}

/** A path parameter the matched route declares (`:id`, `*id`), decoded. */
export function pathParam(ctx: VigieContext, name: string): string {
  const value = ctx.params[name];
  if (value === undefined) throw new Error(`the route has no path parameter ${name}`);
  return value;
}
