import { describe, expect, it } from 'vitest';
import { FormJsonDepthMeter, JsonDepthMeter, assertJsonDepth } from './json-depth.js';

const nested = (n: number) => '['.repeat(n) + ']'.repeat(n);

describe('JsonDepthMeter', () => {
  it('accepts nesting up to the bound and refuses one level more, as an invalid body', () => {
    expect(() => assertJsonDepth(nested(8), 8)).not.toThrow();
    expect(() => assertJsonDepth(nested(9), 8)).toThrow(expect.objectContaining({ code: 'BODY_INVALID_JSON', detail: 'JSON nested deeper than 8 levels' }));
    expect(() => assertJsonDepth(`{"a":${'{"b":'.repeat(100_000)}1}`, 64)).toThrow('nested deeper than 64');
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(() => assertJsonDepth(JSON.stringify({ text: '[[[[[[[[[[[[["\\' + '{'.repeat(50) }), 4)).not.toThrow();
  });

  it('measures across chunks, as bytes or text', () => {
    const meter = new JsonDepthMeter(3);
    meter.feed(Buffer.from('[["a\\'));
    meter.feed('"[[["]');
    expect(() => meter.feed(Buffer.from('[[['))).toThrow('nested deeper than 3');
  });

  it('measures as a character-by-character reading does, however the text is cut into chunks', () => {
    // A small deterministic generator: texts of brackets, quotes, backslashes and letters, cut at random places.
    let state = 11;
    const random = (n: number) => {
      state = (state * 48271) % 2147483647;
      return state % n;
    };
    const alphabet = '[]{}"\\ab';
    for (let run = 0; run < 500; run++) {
      const text = Array.from({ length: 1 + random(200) }, () => alphabet[random(alphabet.length)]).join('');
      const max = 1 + random(6);
      // The reference: one character at a time.
      const byCode = new JsonDepthMeter(max);
      let refusedAt: number | undefined;
      for (let i = 0; i < text.length && refusedAt === undefined; i++) {
        try {
          byCode.feedCode(text.charCodeAt(i));
        } catch {
          refusedAt = i;
        }
      }
      const chunked = new JsonDepthMeter(max);
      const asBytes = random(2) === 0;
      let refused = false;
      for (let start = 0; start < text.length && !refused; ) {
        const end = Math.min(text.length, start + 1 + random(40));
        const piece = text.slice(start, end);
        try {
          chunked.feed(asBytes ? Buffer.from(piece) : piece);
        } catch {
          refused = true;
          // Refused in the chunk where the character-by-character reading refused.
          expect(refusedAt !== undefined && refusedAt >= start && refusedAt < end, text).toBe(true);
        }
        start = end;
      }
      expect(refused, text).toBe(refusedAt !== undefined);
    }
  });
});

describe('FormJsonDepthMeter', () => {
  it('decodes escapes split across chunks and measures each field on its own', () => {
    const meter = new FormJsonDepthMeter(2);
    meter.feed('json=%5B%5');
    meter.feed('B%5D%5D&other=%7B%7B');
    expect(() => meter.feed('%7B')).toThrow('nested deeper than 2');
  });

  it('takes a % that starts no escape as itself', () => {
    const meter = new FormJsonDepthMeter(1);
    meter.feed('json=%ZZ%5B%2');
    expect(() => meter.feed('x[')).toThrow('nested deeper than 1');
  });
});
