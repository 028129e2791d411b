import type { Context } from 'koa';
import { ErrorCodes, VigieError, type VigieContext } from '@vigie/kernel';
import { inputBounds } from './input-bounds.js';

/** The body the kernel parsed for this request (undefined when there was none, or the route reads the stream). */
export function requestBody(ctx: Context | VigieContext): unknown {
  return (ctx.request as { body?: unknown }).body;
}

/**
 * A path parameter the matched route declares (`:id`, `*id`), decoded. Longer than `maxLength` (an id's 255
 * characters unless the route takes something else there, such as a filter) it is a `PARAM_TOO_LONG` error
 * (400 unless the feature words it): no such id can exist, and none is looked up.
 */
export function pathParam(ctx: VigieContext, name: string, maxLength: number = inputBounds.idLength): string {
  const value = ctx.params[name];
  if (value === undefined) throw new Error(`the route has no path parameter ${name}`);
  if (value.length > maxLength) throw new VigieError(ErrorCodes.ParamTooLong, `the path parameter ${name} must be at most ${maxLength} characters`);
  return value;
}
