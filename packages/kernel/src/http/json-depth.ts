import { ErrorCodes, VigieError } from '../errors.js';

/** What `[server] json_max_depth` defaults to: far above any real rule, far below what overflows a recursive walk. */
export const defaultJsonMaxDepth = 64;

/** Input bounds the kernel applies and features reuse (`KernelTokens.InputLimits`). */
export interface InputLimits {
  /** How deep objects and arrays may nest in a JSON text (`[server] json_max_depth`). */
  readonly jsonMaxDepth: number;
}

const quote = 0x22;
const backslash = 0x5c;
const openers = new Set([0x5b, 0x7b]);
const closers = new Set([0x5d, 0x7d]);

/**
 * Measures how deep a JSON text nests, chunk by chunk and without parsing it, so that a body can be refused before
 * any recursive code sees it, including bodies streamed to disk. It reads bytes (or UTF-16 code units): the
 * characters it cares about are ASCII, which UTF-8 never uses inside a multi-byte sequence. Brackets inside strings
 * do not count. It does not validate the text: a parser does that afterwards.
 */
export class JsonDepthMeter {
  readonly #max: number;
  #depth = 0;
  #inString = false;
  #escaped = false;

  constructor(max: number) {
    this.#max = max;
  }

  /** Feeds one character code; throws `BODY_INVALID_JSON` once the text nests deeper than the bound. */
  feedCode(code: number): void {
    if (this.#inString) {
      if (this.#escaped) this.#escaped = false;
      else if (code === backslash) this.#escaped = true;
      else if (code === quote) this.#inString = false;
      return;
    }
    if (code === quote) this.#inString = true;
    else if (openers.has(code)) {
      this.#depth += 1;
      if (this.#depth > this.#max) throw tooDeep(this.#max);
    } else if (closers.has(code) && this.#depth > 0) this.#depth -= 1;
  }

  /** Feeds a chunk of text or bytes. */
  feed(chunk: string | Uint8Array): void {
    if (typeof chunk === 'string') for (let i = 0; i < chunk.length; i++) this.feedCode(chunk.charCodeAt(i));
    else for (const code of chunk) this.feedCode(code);
  }

  /** Starts over (a new form field). */
  reset(): void {
    this.#depth = 0;
    this.#inString = false;
    this.#escaped = false;
  }
}

/**
 * The same measure over an `application/x-www-form-urlencoded` body: `%XX` escapes are decoded (also when split
 * across chunks) and each field (`&`) is measured on its own, so a form field holding JSON gets the same bound.
 */
export class FormJsonDepthMeter {
  readonly #meter: JsonDepthMeter;
  /** Hex digits of a pending `%` escape, or null outside one. */
  #escape: string | null = null;

  constructor(max: number) {
    this.#meter = new JsonDepthMeter(max);
  }

  feed(chunk: string | Uint8Array): void {
    const codes = typeof chunk === 'string' ? Array.from(chunk, (c) => c.charCodeAt(0)) : chunk;
    for (const code of codes) {
      if (this.#escape !== null) {
        this.#escape += String.fromCharCode(code);
        if (this.#escape.length < 2) continue;
        const decoded = Number.parseInt(this.#escape, 16);
        this.#escape = null;
        if (!Number.isNaN(decoded)) this.#meter.feedCode(decoded);
      } else if (code === 0x25) this.#escape = '';
      else if (code === 0x26) this.#meter.reset();
      else this.#meter.feedCode(code);
    }
  }
}

/** Throws `BODY_INVALID_JSON` when `text` nests deeper than `max` (cheap: texts too short to nest that deep pass). */
export function assertJsonDepth(text: string, max: number): void {
  if (text.length <= max * 2) return;
  new JsonDepthMeter(max).feed(text);
}

function tooDeep(max: number): VigieError {
  const detail = `JSON nested deeper than ${max} levels`;
  return new VigieError(ErrorCodes.BodyInvalidJson, `invalid JSON: ${detail}`, { detail });
}
