import { describe, expect, it } from 'vitest';
import { escapeRegExp } from './text.js';

describe('escapeRegExp', () => {
  it('makes every regular-expression character literal', () => {
    const text = 'a.b*c+d?e^f$g{h}i(j)k|l[m]n\\o';
    expect(new RegExp(escapeRegExp(text)).exec(`x${text}y`)?.[0]).toBe(text);
  });
});
