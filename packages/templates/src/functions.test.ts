import { describe, expect, it } from 'vitest';
import { compile, parseTemplate, TemplateExecError, type CompileOptions } from './index.js';

const render = (source: string, data?: unknown, options?: CompileOptions): string => compile(source, options).render(data);

function execDetail(source: string, data?: unknown): string {
  try {
    compile(source).render(data);
  } catch (err) {
    if (err instanceof TemplateExecError) return err.detail;
    throw err;
  }
  throw new Error(`expected ${JSON.stringify(source)} to fail`);
}

describe('comparisons', () => {
  it('eq compares the first argument with each of the others', () => {
    expect(render('{{eq 1 1}} {{eq 1 2}} {{eq 1 2 3 1}} {{eq "a" "a"}} {{eq true false}} {{eq 1.5 1.5}}')).toBe('true false true true false true');
  });

  it('eq treats nil and missing values as equal only to nil', () => {
    expect(render('{{eq .Missing "x"}} {{eq .Missing nil}} {{eq nil nil}} {{eq .Null 0}}', { Null: null })).toBe('false true true false');
  });

  it('eq compares dates by instant', () => {
    expect(render('{{eq .A .B}} {{eq .A .C}}', { A: new Date(5), B: new Date(5), C: new Date(6) })).toBe('true false');
  });

  it('eq refuses incompatible and non-comparable values', () => {
    expect(execDetail('{{eq 1 "1"}}')).toBe('error calling eq: incompatible types for comparison');
    expect(execDetail('{{eq . .}}', [1])).toBe('error calling eq: non-comparable type array');
    expect(execDetail('{{eq 1}}')).toBe('error calling eq: missing argument for comparison');
  });

  it('ne is the negation of eq on two arguments', () => {
    expect(render('{{ne 1 2}} {{ne "a" "a"}}')).toBe('true false');
    expect(execDetail('{{ne 1 true}}')).toBe('error calling ne: incompatible types for comparison');
  });

  it('lt, le, gt and ge order numbers and strings', () => {
    expect(render('{{lt 1 2}} {{le 2 2}} {{gt 3 2}} {{ge 2 3}} {{lt 1.5 1}}')).toBe('true true true false false');
    expect(render('{{lt "a" "b"}} {{le "b" "b"}} {{gt "b" "a"}} {{ge "a" "b"}}')).toBe('true true true false');
  });

  it('lt, le, gt and ge refuse other values', () => {
    expect(execDetail('{{lt 1 "a"}}')).toBe('error calling lt: incompatible types for comparison');
    expect(execDetail('{{gt true false}}')).toBe('error calling gt: invalid type for comparison');
    expect(execDetail('{{le .Missing 1}}')).toBe('error calling le: invalid type for comparison');
    expect(execDetail('{{ge . 1}}', [1])).toBe('error calling ge: invalid type for comparison');
  });
});

describe('and, or, not', () => {
  it('and returns the first falsy argument, or the last', () => {
    expect(render('{{and 1 0 2}} {{and 1 2}} {{and "" 1}}|{{0 | and 1}}')).toBe('0 2 |0');
  });

  it('or returns the first truthy argument, or the last', () => {
    expect(render('{{or 0 "" "x" "y"}} {{or 0 ""}}| {{or .Name "default"}}', {})).toBe('x | default');
  });

  it('short-circuit: arguments after the deciding one are not evaluated', () => {
    expect(render('{{and .Missing (index .Missing 0)}}', {})).toBe('<no value>');
    expect(render('{{or .List (index .List 99)}}', { List: [1] })).toBe('[1]');
    expect(render('{{if and .Alarm (eq .Alarm.State 3)}}critical{{else}}other{{end}}', {})).toBe('other');
  });

  it('not negates the truth of its argument', () => {
    expect(render('{{not 0}} {{not "x"}} {{not .Missing}}', {})).toBe('true false true');
  });
});

describe('len and index', () => {
  it('len counts array elements, map keys and string bytes like Go', () => {
    expect(render('{{len .L}} {{len .M}} {{len "abc"}} {{len "é"}}', { L: [1, 2], M: { a: 1 } })).toBe('2 1 3 2');
  });

  it('len refuses values without a length', () => {
    expect(execDetail('{{len 3}}')).toBe('error calling len: len of type number');
    expect(execDetail('{{len .Missing}}', {})).toBe('error calling len: len of nil pointer');
  });

  it('index reads arrays, maps and nested values', () => {
    const data = { L: ['a', 'b'], M: { 'dash-key': [1, { x: 'deep' }] } };
    expect(render('{{index .L 1}} {{index .M "dash-key" 1 "x"}} {{index .L}}', data)).toBe('b deep [a b]');
  });

  it('index of a missing key is no value, like a missing field', () => {
    expect(render('{{index . "nope"}}', {})).toBe('<no value>');
  });

  it('index of a string is a byte, like Go', () => {
    expect(render('{{index "é" 0}}')).toBe('195');
  });

  it('index refuses bad keys and items', () => {
    expect(execDetail('{{index .L 2}}', { L: [1] })).toBe('error calling index: index out of range: 2');
    expect(execDetail('{{index .L -1}}', { L: [1] })).toBe('error calling index: index out of range: -1');
    expect(execDetail('{{index .L "0"}}', { L: [1] })).toBe('error calling index: cannot index slice/array with type string');
    expect(execDetail('{{index . 0}}', { a: 1 })).toBe('error calling index: value has type number; should be string');
    expect(execDetail('{{index .Missing 0}}', {})).toBe('error calling index: index of untyped nil');
    expect(execDetail('{{index 5 0}}')).toBe("error calling index: can't index item of type number");
  });
});

describe('print, println, printf', () => {
  it('print adds spaces only between two non-string operands', () => {
    expect(render('{{print 1 2}}|{{print "a" "b"}}|{{print "a" 1 2 "b"}}|{{print}}')).toBe('1 2|ab|a1 2b|');
  });

  it('println separates every operand and ends the line', () => {
    expect(render('{{println "a" 1 "b"}}')).toBe('a 1 b\n');
  });

  it('printf formats its arguments', () => {
    expect(render('{{printf "%s is %d" .Name .Age}}', { Name: 'x', Age: 3 })).toBe('x is 3');
  });

  it('printf needs a string format', () => {
    expect(execDetail('{{printf 1}}')).toBe('error calling printf: wrong type for value; expected string; got number');
  });
});

describe('urlquery', () => {
  it("escapes like Go's QueryEscape, spaces as +", () => {
    expect(render('{{urlquery "a b&c=d/é?~-_."}}')).toBe('a+b%26c%3Dd%2F%C3%A9%3F~-_.');
  });

  it('prints several or non-string arguments first', () => {
    expect(render('{{urlquery 1 2}} {{.X | urlquery}}', { X: 3 })).toBe('1+2 3');
  });
});

describe('json and json_unquote', () => {
  it('json encodes any value', () => {
    expect(render('{{json .}}', { s: 'a "q"\n', n: 1.5, b: true, z: null, l: [1, 'x'] })).toBe('{"s":"a \\"q\\"\\n","n":1.5,"b":true,"z":null,"l":[1,"x"]}');
    expect(render('{{json .Missing}} {{json "x"}} {{json 3}}', {})).toBe('null "x" 3');
  });

  it('json writes dates as RFC 3339 in UTC', () => {
    expect(render('{{json .}}', { at: new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 600)) })).toBe('{"at":"2024-01-02T03:04:05.6Z"}');
  });

  it('json_unquote drops the quotes of an encoded string, for use inside a JSON string', () => {
    expect(render('"{{json_unquote .}}"', 'say "hi"\n\tbye')).toBe('"say \\"hi\\"\\n\\tbye"');
    expect(render('{{json_unquote 3}} {{json_unquote .}}', { a: 1 })).toBe('3 {"a":1}');
  });
});

describe('split', () => {
  it('takes the separator, the index, then the string (the piped value)', () => {
    expect(render('{{.X | split "," 1}}|{{split "/" 0 "a/b"}}', { X: 'a,b,c' })).toBe('b|a');
  });

  it('returns an empty string when the index is out of range', () => {
    expect(render('[{{"a,b" | split "," 2}}][{{"a,b" | split "," -1}}]')).toBe('[][]');
  });

  it('splits into characters on an empty separator', () => {
    expect(render('{{"héllo" | split "" 1}}')).toBe('é');
  });

  it('refuses arguments of the wrong type', () => {
    expect(execDetail('{{.X | split "," 0}}', { X: 5 })).toBe('error calling split: wrong type for value; expected string; got number');
    expect(execDetail('{{"a" | split "," "0"}}')).toBe('error calling split: wrong type for value; expected int; got string');
  });
});

describe('trim, lowercase, uppercase', () => {
  it('transform strings', () => {
    expect(render('[{{trim " \\t a b \\n"}}] {{lowercase "ÀbC"}} {{uppercase "àbc"}}')).toBe('[a b] àbc ÀBC');
  });

  it('refuse non-strings', () => {
    expect(execDetail('{{uppercase 1}}')).toBe('error calling uppercase: wrong type for value; expected string; got number');
  });
});

describe('replace', () => {
  it('replaces every match, in direct and pipeline form', () => {
    expect(render('{{replace "a+" "b" "caaat aa"}}|{{.X | replace "\\\\s+" " "}}', { X: 'a  \n b' })).toBe('cbt b|a b');
  });

  it("expands groups with Go's syntax", () => {
    expect(render('{{"john smith" | replace "(\\\\w+) (\\\\w+)" "$2, $1"}}')).toBe('smith, john');
    expect(render('{{"ab" | replace "(a)" "${1}x"}}|{{"ab" | replace "(a)" "$1x"}}')).toBe('axb|b');
    expect(render('{{"ab" | replace "(?<first>a)" "<$first>"}}|{{"a" | replace "a" "$$1"}}|{{"a" | replace "a" "$"}}')).toBe('<a>b|$1|$');
    expect(render('{{"a" | replace "(a)(b)?" "[$2][$9][$0]"}}')).toBe('[][][a]');
  });

  it('accepts Go inline flags at the start of the pattern', () => {
    expect(render('{{"ABC abc" | replace "(?i)b" "-"}}')).toBe('A-C a-c');
  });

  it('does not replace an empty match right after a match, like Go', () => {
    expect(render('{{"baaac" | replace "a*" "X"}}')).toBe('XbXcX');
  });

  it('refuses unsafe literal patterns when the template is parsed', () => {
    const result = parseTemplate('{{ .X | replace "(a+)+$" "" }}');
    expect(result).toMatchObject({
      ok: false,
      error: { line: 1, column: 9, detail: 'invalid argument for replace: nested quantifiers (such as (a+)+ or (a|b)*) are not allowed in regular expressions' },
    });
    expect(parseTemplate('{{ replace "(" "" . }}')).toMatchObject({ ok: false, error: { detail: expect.stringContaining('invalid regular expression') } });
  });

  it('refuses unsafe patterns that come from the data when rendering', () => {
    expect(execDetail('{{replace .P "" "x"}}', { P: '(x|xx)*y' })).toBe(
      'error calling replace: nested quantifiers (such as (a+)+ or (a|b)*) are not allowed in regular expressions',
    );
    expect(execDetail('{{replace .P "" "x"}}', { P: 'a'.repeat(257) })).toBe('error calling replace: regular expression longer than 256 characters');
  });
});

describe('formattedDate', () => {
  it('formats dates and epoch seconds with a Go layout, in UTC', () => {
    const data = { D: new Date(Date.UTC(2024, 2, 5, 17, 8, 9)), S: 0, F: 1.5 };
    expect(render('{{.D | formattedDate "2006-01-02 15:04:05"}}', data)).toBe('2024-03-05 17:08:09');
    expect(render('{{formattedDate "02/01/2006 3:04pm" .S}}|{{.F | formattedDate "05.000"}}', data)).toBe('01/01/1970 12:00am|01.500');
  });

  it('refuses other values', () => {
    expect(execDetail('{{formattedDate "2006" "2024"}}')).toBe('error calling formattedDate: expected a date or epoch seconds; got string');
  });
});

describe('custom functions', () => {
  it('are called with the evaluated arguments, missing values as null', () => {
    const seen: unknown[][] = [];
    const options = { functions: { spy: (...args: unknown[]) => (seen.push(args), 'ok') } };
    expect(render('{{spy 1 "a" .Missing}} {{.X | spy}}', { X: [1] }, options)).toBe('ok ok');
    expect(seen).toEqual([[1, 'a', null], [[1]]]);
  });

  it('can replace a built-in', () => {
    expect(render('{{lowercase "A"}}', {}, { functions: { lowercase: () => 'custom' } })).toBe('custom');
  });

  it('must have identifier names and be functions', () => {
    expect(() => compile('', { functions: { 'bad-name': () => 1 } })).toThrow(TypeError);
    expect(() => compile('', { functions: { fine: 'nope' as unknown as () => unknown } })).toThrow('is not a function');
  });
});

describe('excluded built-in functions', () => {
  it('are not defined: a template using one fails to parse, the others still work', () => {
    const options: CompileOptions = { exclude: ['json', 'replace'] };
    const parsed = parseTemplate('{{ json .X }}', options);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.message).toContain('function "json" not defined');
    expect(compile('{{ .X | uppercase }}', options).render({ X: 'a' })).toBe('A');
  });
});
