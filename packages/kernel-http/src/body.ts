import type { Context } from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';
import { ErrorCodes, VigieError, type BodyMedia, type BodyOptions } from '@vigie/kernel';
import { assertJsonDepth } from './json-depth.js';

/** The methods whose body the kernel reads (and checks against a route's `requestSchema`). */
export const bodyMethods: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH']);

const unparsedBody = Symbol.for('unparsedBody');
const mediaTypes: Record<BodyMedia, string[]> = {
  json: ['application/json', 'application/*+json'],
  form: ['application/x-www-form-urlencoded'],
  text: ['text/*'],
};

function hasBody(ctx: Context): boolean {
  return ctx.request.length > 0 || ctx.get('transfer-encoding') !== '';
}

/** The server-wide bounds a route's own `BodyOptions` start from. */
export interface BodyDefaults {
  /** `[server] body_limit`, in bytes. */
  limit: number;
  /** `[server] json_max_depth`. */
  jsonMaxDepth: number;
}

/**
 * Reads the request body into `ctx.request.body` (undefined when there is none), raising kernel errors that
 * features word as their spec requires: BODY_INVALID_JSON (also for JSON nested deeper than the bound, so that no
 * recursive code ever sees such a value), BODY_TOO_LARGE, BODY_EMPTY, BODY_UNSUPPORTED_TYPE.
 */
export async function readBody(ctx: Context, options: BodyOptions, defaults: BodyDefaults): Promise<void> {
  const accept = options.accept ?? ['json'];
  const limit = options.limit ?? defaults.limit;
  ctx.request.body = undefined;
  if (!hasBody(ctx)) {
    if (options.required) throw new VigieError(ErrorCodes.BodyEmpty, 'the request body is empty');
    return;
  }
  if (ctx.request.length > limit) throw tooLarge(limit);
  const media = accept.find((m) => ctx.request.is(mediaTypes[m]) !== false);
  if (!media && options.otherMedia === 'absent') {
    if (options.required) throw new VigieError(ErrorCodes.BodyEmpty, 'the request body is empty');
    return;
  }
  if (!media) {
    const type = ctx.get('content-type') || 'none';
    throw new VigieError(ErrorCodes.BodyUnsupportedType, `unsupported content type ${type}; expected ${accept.map((m) => mediaTypes[m][0]).join(' or ')}`);
  }
  const parse = koaBody({
    json: media === 'json',
    urlencoded: media === 'form',
    text: media === 'text',
    multipart: false,
    jsonStrict: false,
    includeUnparsed: true,
    // The route decided to read this request's body (`bodyMethods`, or a DELETE with `onDelete`).
    parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE],
    jsonLimit: limit,
    formLimit: limit,
    textLimit: limit,
  });
  try {
    await parse(ctx, async () => undefined);
  } catch (err) {
    const e = err as { status?: number; type?: string; message?: string; body?: unknown };
    if (e.status === 413 || e.type === 'entity.too.large') throw tooLarge(limit);
    // An unknown Content-Encoding or charset: the body cannot be read at all.
    if (e.status === 415) throw new VigieError(ErrorCodes.BodyUnsupportedType, `unsupported body: ${e.message ?? 'unknown encoding'}`, { cause: err });
    // A body of only whitespace is an empty body, not broken JSON (the parser hands back what it read).
    if (typeof e.body === 'string' && e.body.trim() === '') {
      if (options.required) throw new VigieError(ErrorCodes.BodyEmpty, 'the request body is empty');
      return;
    }
    if (err instanceof SyntaxError || e.status === 400) {
      throw new VigieError(ErrorCodes.BodyInvalidJson, `invalid JSON: ${e.message ?? 'unparsable body'}`, { detail: e.message ?? 'unparsable body', cause: err });
    }
    throw err;
  }
  const parsed = ctx.request.body as unknown;
  const raw = typeof parsed === 'object' && parsed !== null ? (parsed as Record<symbol, unknown>)[unparsedBody] : parsed;
  if (typeof raw === 'string' && raw.trim() === '') {
    ctx.request.body = undefined;
    if (options.required) throw new VigieError(ErrorCodes.BodyEmpty, 'the request body is empty');
    return;
  }
  const text = (ctx.request as { rawBody?: unknown }).rawBody;
  if (media === 'json' && typeof text === 'string') {
    try {
      assertJsonDepth(text, defaults.jsonMaxDepth);
    } catch (err) {
      ctx.request.body = undefined;
      throw err;
    }
  }
}

function tooLarge(limit: number): VigieError {
  return new VigieError(ErrorCodes.BodyTooLarge, `the request body exceeds ${limit} bytes`);
}

/** Parses a size such as `512mb`, `1 MiB`, `65536`. */
export function parseByteSize(value: string | number): number {
  if (typeof value === 'number') return value;
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(i?b)?\s*$/i.exec(value);
  if (!m) throw new Error(`invalid size ${JSON.stringify(value)}`);
  const unit = (m[2] ?? '').toLowerCase();
  const power = ['', 'k', 'm', 'g', 't'].indexOf(unit);
  return Math.round(Number(m[1]) * 1024 ** power);
}
