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
