import { ErrorCodes, VigieError } from '@vigie/kernel';

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
  /** Characters of the current string read one by one: past `longString`, the rest is searched natively. */
  #stringRun = 0;

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

  /**
   * Feeds a chunk of text or bytes. Inside a string only a quote or a backslash matters: past a few characters the
   * meter jumps to the next one with the native `indexOf` (a long string costs one search, not a step per character),
   * while short strings, the most common, are read in place.
   */
  feed(chunk: string | Uint8Array): void {
    const text = typeof chunk === 'string' ? chunk : undefined;
    const bytes = typeof chunk === 'string' ? undefined : chunk;
    const length = chunk.length;
    let depth = this.#depth;
    let inString = this.#inString;
    let escaped = this.#escaped;
    let run = this.#stringRun;
    let i = 0;
    while (i < length) {
      const code = text !== undefined ? text.charCodeAt(i) : (bytes as Uint8Array)[i] as number;
      if (inString) {
        if (escaped) escaped = false;
        else if (code === backslash) escaped = true;
        else if (code === quote) inString = false;
        else if (++run > longString && i + 1 < length) {
          // A long string: on to its next quote or backslash at once.
          run = 0;
          i = nextQuoteOrBackslash(chunk, i + 1);
          continue;
        }
        i += 1;
        continue;
      }
      run = 0;
      if (code === quote) inString = true;
      else if (code === openBracket || code === openBrace) {
        depth += 1;
        if (depth > this.#max) throw tooDeep(this.#max);
      } else if ((code === closeBracket || code === closeBrace) && depth > 0) depth -= 1;
      i += 1;
    }
    this.#depth = depth;
    this.#inString = inString;
    this.#escaped = escaped;
    this.#stringRun = run;
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

/** Characters of a string read one at a time before the meter searches for its end. */
const longString = 32;

/** Where the next quote or backslash is from `from` (the chunk's length when there is none). */
function nextQuoteOrBackslash(chunk: string | Uint8Array, from: number): number {
  const quoteAt = typeof chunk === 'string' ? chunk.indexOf('"', from) : chunk.indexOf(quote, from);
  const end = quoteAt < 0 ? chunk.length : quoteAt;
  // Only up to the quote: a backslash beyond it belongs to a later string.
  const backslashAt = typeof chunk === 'string' ? chunk.slice(from, end).indexOf('\\') : chunk.subarray(from, end).indexOf(backslash);
  return backslashAt < 0 ? end : from + backslashAt;
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
