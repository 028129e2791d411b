import { ErrorCodes, VigieError } from '../errors.js';

/** What `[server] json_max_depth` defaults to: far above any real rule, far below what overflows a recursive walk. */
export const defaultJsonMaxDepth = 64;

/** Input bounds the kernel applies and features reuse (`kernelRefs.inputLimits`). */
export interface InputLimits {
  /** How deep objects and arrays may nest in a JSON text (`[server] json_max_depth`). */
  readonly jsonMaxDepth: number;
}

const quote = 0x22;
const backslash = 0x5c;
const openBracket = 0x5b;
const openBrace = 0x7b;
const closeBracket = 0x5d;
const closeBrace = 0x7d;
const percent = 0x25;
const ampersand = 0x26;

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
    else if (code === openBracket || code === openBrace) {
      this.#depth += 1;
      if (this.#depth > this.#max) throw tooDeep(this.#max);
    } else if ((code === closeBracket || code === closeBrace) && this.#depth > 0) this.#depth -= 1;
  }

  /** Feeds a chunk of text or bytes. */
  feed(chunk: string | Uint8Array): void {
    if (typeof chunk === 'string') for (let i = 0; i < chunk.length; i++) this.feedCode(chunk.charCodeAt(i));
    else for (let i = 0; i < chunk.length; i++) this.feedCode(chunk[i] as number);
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
  /** Hex digits still expected by a pending `%` escape (0 outside one), and the value read so far. */
  #escapeDigits = 0;
  #escapeValue = 0;

  constructor(max: number) {
    this.#meter = new JsonDepthMeter(max);
  }

  feed(chunk: string | Uint8Array): void {
    const text = typeof chunk === 'string';
    for (let i = 0; i < chunk.length; i++) {
      const code = text ? chunk.charCodeAt(i) : (chunk[i] as number);
      if (this.#escapeDigits > 0) {
        const digit = hexValue(code);
        if (digit < 0) {
          // Not an escape after all: `%` and this character stand for themselves.
          this.#escapeDigits = 0;
          this.#meter.feedCode(percent);
          this.#meter.feedCode(code);
          continue;
        }
        this.#escapeValue = this.#escapeValue * 16 + digit;
        this.#escapeDigits -= 1;
        if (this.#escapeDigits === 0) this.#meter.feedCode(this.#escapeValue);
      } else if (code === percent) {
        this.#escapeDigits = 2;
        this.#escapeValue = 0;
      } else if (code === ampersand) this.#meter.reset();
      else this.#meter.feedCode(code);
    }
  }
}

function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x41 && code <= 0x46) return code - 0x37;
  if (code >= 0x61 && code <= 0x66) return code - 0x57;
  return -1;
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
