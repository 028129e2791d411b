import type { Context } from 'koa';
import { ErrorCodes, HttpError, hasCode, isHttpError, type ErrorWording, type WordedError } from '@vigie/kernel';

/** What the kernel answers when no feature wording applies. */
export const defaultWording: ErrorWording = {
  [ErrorCodes.BodyInvalidJson]: (e) => ({ status: 400, description: `Invalid JSON: ${e.detail}` }),
  [ErrorCodes.BodyTooLarge]: (e) => ({ status: 413, description: e.detail }),
  [ErrorCodes.BodyEmpty]: () => ({ status: 400, description: 'The request body is empty' }),
  [ErrorCodes.BodyUnsupportedType]: (e) => ({ status: 415, description: e.detail }),
  [ErrorCodes.Validation]: (e) => ({ status: 400, description: e.detail }),
  [ErrorCodes.ParamTooLong]: (e) => ({ status: 400, description: e.detail }),
  [ErrorCodes.UnsafeFilter]: (e) => ({ status: 400, description: `Invalid filter: ${e.detail}` }),
  [ErrorCodes.DuplicateKey]: (e) => ({ status: 409, description: e.detail }),
};

function toHttpError(worded: WordedError, cause: unknown): HttpError {
  if (isHttpError(worded)) return worded;
  return new HttpError(worded.status, worded.description, { name: worded.name, format: worded.format, cause });
}

/**
 * Turns any error thrown by a route into an HttpError, looking for a wording by `code` in the route's table,
 * then the feature's, then the kernel defaults. Errors without a wording stay as they are (500 later).
 */
export function wordError(err: unknown, ctx: Context, tables: readonly (ErrorWording | undefined)[]): unknown {
  if (isHttpError(err)) return err;
  if (typeof err !== 'object' || err === null) return err;
  const code = (err as { code?: unknown }).code;
  if (typeof code !== 'string') return err;
  for (const table of [...tables, defaultWording]) {
    const word = table?.[code];
    if (word && hasCode(err, code)) return toHttpError(word(err, ctx), err);
  }
  return err;
}
