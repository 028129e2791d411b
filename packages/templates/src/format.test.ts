import { describe, expect, it } from 'vitest';
import { sprintf } from './format.js';
import { compile } from './index.js';

describe('printf verbs', () => {
  it.each<[string, unknown[], string]>([
    ['%s', ['text'], 'text'],
    ['%d', [42], '42'],
    ['%d', [-7], '-7'],
    ['%v', [42], '42'],
    ['%v', [1.5], '1.5'],
    ['%v', ['s'], 's'],
    ['%v', [true], 'true'],
    ['%v', [null], '<nil>'],
    ['%v', [[1, 'a']], '[1 a]'],
    ['%v', [{ b: 1, a: [2] }], 'map[a:[2] b:1]'],
    ['%q', ['say "hi"\n\u0001é'], '"say \\"hi\\"\\n\\x01é"'],
    ['%q', [97], "'a'"],
    ['%f', [1.5], '1.500000'],
    ['%.2f', [3.14159], '3.14'],
    ['%.0f', [2.4], '2'],
    ['%f', [3], '3.000000'],
    ['%e', [1234.5678], '1.234568e+03'],
    ['%E', [0.00012], '1.200000E-04'],
    ['%g', [1e6], '1e+06'],
    ['%g', [100000], '100000'],
    ['%.3g', [3.14159], '3.14'],
    ['%.3g', [1234.5], '1.23e+03'],
    ['%G', [1e-7], '1E-07'],
    ['%t', [false], 'false'],
    ['%x', [255], 'ff'],
    ['%X', [255], 'FF'],
    ['%x', [-255], '-ff'],
    ['%#x', [255], '0xff'],
    ['%x', ['hi'], '6869'],
    ['%X', ['é'], 'C3A9'],
    ['%o', [8], '10'],
    ['%b', [5], '101'],
    ['%c', [0x263a], '☺'],
    ['%d%%', [50], '50%'],
    ['%s', [['a', 'b']], '[a b]'],
    ['%d', [[1, 2]], '[1 2]'],
    ['%s', [new Date(Date.UTC(2024, 0, 2))], '2024-01-02 00:00:00 +0000 UTC'],
    ['%f', [Infinity], '+Inf'],
    ['%f', [-Infinity], '-Inf'],
    ['%f', [NaN], 'NaN'],
    ['%d', [2 ** 70], '1180591620717411303424'],
  ])('%s of %j is %s', (format, args, expected) => {
    expect(sprintf(format, args)).toBe(expected);
  });
});

describe('printf flags, width and precision', () => {
  it.each<[string, unknown[], string]>([
    ['[%5d]', [42], '[   42]'],
    ['[%-5d]', [42], '[42   ]'],
    ['[%05d]', [-42], '[-0042]'],
    ['[%+d]', [5], '[+5]'],
    ['[% d]', [5], '[ 5]'],
    ['[%.3d]', [7], '[007]'],
    ['[%08.3f]', [-3.14159], '[-003.142]'],
    ['[%+.1f]', [2], '[+2.0]'],
    ['[%6s]', ['ab'], '[    ab]'],
    ['[%-6s]', ['ab'], '[ab    ]'],
    ['[%.2s]', ['héllo'], '[hé]'],
    ['[%5t]', [true], '[ true]'],
    ['[%6v]', [1.5], '[   1.5]'],
    ['[%5f]', [Infinity], '[ +Inf]'],
  ])('%s of %j is %s', (format, args, expected) => {
    expect(sprintf(format, args)).toBe(expected);
  });
});

describe('printf mistakes, reported in the output as Go does', () => {
  it.each<[string, unknown[], string]>([
    ['%d', ['abc'], '%!d(string=abc)'],
    ['%s', [5], '%!s(int=5)'],
    ['%d', [1.5], '%!d(float64=1.5)'],
    ['%t', [1], '%!t(int=1)'],
    ['%s', [null], '%!s(<nil>)'],
    ['%z', [1], '%!z(int=1)'],
    ['%f', [[]], '[]'],
    ['%d', [{ a: 'x' }], 'map[a:%!d(string=x)]'],
    ['%d %d', [1], '1 %!d(MISSING)'],
    ['%d', [1, 2, 'x'], '1%!(EXTRA int=2, string=x)'],
    ['50%', [], '50%!(NOVERB)'],
  ])('%s of %j is %s', (format, args, expected) => {
    expect(sprintf(format, args)).toBe(expected);
  });

  it('refuses widths and precisions that would allocate huge strings', () => {
    expect(() => sprintf('%99999d', [1])).toThrow('width 99999 is larger than 10000');
    expect(() => sprintf('%.101f', [1])).toThrow('precision 101 is larger than 100');
  });
});

describe('printf in templates', () => {
  it('receives missing values as nil', () => {
    expect(compile('{{printf "%v|%s" .Missing .Missing}}').render({})).toBe('<nil>|%!s(<nil>)');
  });

  it('reports its limits as execution errors', () => {
    expect(() => compile('{{printf "%20000d" 1}}').render()).toThrow('error calling printf: width 20000 is larger than 10000');
  });
});
