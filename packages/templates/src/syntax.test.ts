import { describe, expect, it } from 'vitest';
import { compile, parseTemplate, TemplateErrorCodes, TemplateParseError } from './index.js';

const render = (source: string, data?: unknown): string => compile(source).render(data);

/** The parse error `compile` throws, so that tests can look at its position and message. */
function parseError(source: string): TemplateParseError {
  const result = parseTemplate(source);
  if (result.ok) throw new Error(`expected ${JSON.stringify(source)} not to parse`);
  return result.error;
}

describe('text and actions', () => {
  it('copies text without actions, single braces included', () => {
    expect(render('plain { "a": 1 } text')).toBe('plain { "a": 1 } text');
    expect(render('')).toBe('');
  });

  it('prints the value of an action', () => {
    expect(render('Hello {{.}}!', 'world')).toBe('Hello world!');
    expect(render('{{.Name}} has {{.Count}}', { Name: 'srv', Count: 2 })).toBe('srv has 2');
  });

  it('allows spaces and newlines inside actions', () => {
    expect(render('{{ if\n  .On }}yes{{\n end }}', { On: true })).toBe('yes');
  });
});

describe('trim markers', () => {
  it('trims all whitespace, newlines included, on the marked side only', () => {
    expect(render('a \n\t {{- .X -}} \n b', { X: 'X' })).toBe('aXb');
    expect(render('a  {{- .X }}  b', { X: 'X' })).toBe('aX  b');
    expect(render('a  {{ .X -}}  b', { X: 'X' })).toBe('a  Xb');
  });

  it('needs a space next to the dash, otherwise the dash is a minus sign', () => {
    expect(render('a {{-3}} b')).toBe('a -3 b');
    expect(render('a {{- -3}} b')).toBe('a-3 b');
  });

  it('lays out lists without stray whitespace', () => {
    const source = '<ul>\n{{- range . }}\n  <li>{{ . }}</li>\n{{- end }}\n</ul>';
    expect(render(source, ['a', 'b'])).toBe('<ul>\n  <li>a</li>\n  <li>b</li>\n</ul>');
  });
});

describe('comments', () => {
  it('are dropped, even across lines', () => {
    expect(render('a{{/* a comment */}}b')).toBe('ab');
    expect(render('a{{/* line one\nline two */}}b')).toBe('ab');
  });

  it('take trim markers', () => {
    expect(render('a \n {{- /* trimmed */ -}} \n b')).toBe('ab');
  });

  it('must be closed and fill the whole action', () => {
    expect(parseError('a{{/* never closed').detail).toBe('unclosed comment');
    expect(parseError('{{/* c */ .X}}').detail).toBe('comment ends before closing delimiter');
  });
});

describe('literals', () => {
  it('reads double-quoted strings with Go escapes', () => {
    expect(render(String.raw`{{"tab\there \u00e9 \x41 \101 \\ \" \U0001F600"}}`)).toBe('tab\there é A A \\ " 😀');
  });

  it('assembles byte escapes as UTF-8', () => {
    expect(render(String.raw`{{"\xc3\xa9"}}`)).toBe('é');
  });

  it('reads raw strings verbatim, without carriage returns', () => {
    expect(render('{{`a\\n "b"\r\nc`}}')).toBe('a\\n "b"\nc');
  });

  it('reads numbers in Go syntax', () => {
    expect(render('{{42}} {{-7}} {{+3}} {{1.5}} {{.5}} {{1e3}} {{0x1F}} {{0o17}} {{017}} {{0b101}} {{1_000}}')).toBe(
      '42 -7 3 1.5 0.5 1000 31 15 15 5 1000',
    );
  });

  it('reads character constants as numbers', () => {
    expect(render(String.raw`{{'a'}} {{'\n'}} {{'é'}} {{printf "%c" 'x'}}`)).toBe('97 10 233 x');
  });

  it('reads booleans and nil', () => {
    expect(render('{{true}} {{false}} {{print nil}}')).toBe('true false <nil>');
  });

  it('refuses malformed literals', () => {
    expect(parseError(String.raw`{{"\q"}}`).detail).toBe(String.raw`invalid escape sequence "\\q"`);
    expect(parseError(String.raw`{{"\ud800"}}`).detail).toBe(String.raw`escape sequence "\\ud800" is not a valid character`);
    expect(parseError('{{"unterminated}}').detail).toBe('unterminated quoted string');
    expect(parseError('{{`unterminated}}').detail).toBe('unterminated raw quoted string');
    expect(parseError("{{'ab'}}").detail).toBe("malformed character constant: 'ab'");
    expect(parseError('{{ 12ab }}').detail).toBe('bad number syntax: "12a"');
    expect(parseError('{{ - }}').detail).toBe('illegal number syntax: "-"');
  });
});

describe('parse errors', () => {
  it('report line and column, Go style', () => {
    const error = parseError('{{ .Alarm.Xy } }}');
    expect(error).toBeInstanceOf(TemplateParseError);
    expect(error.message).toBe('template: 1:14: unexpected "}" in operand');
    expect(error).toMatchObject({ name: 'TemplateParseError', code: TemplateErrorCodes.Parse, line: 1, column: 14, detail: 'unexpected "}" in operand' });
  });

  it('count lines and columns in multi-line templates', () => {
    const error = parseError('line one\nline two\n  {{ .A ) }}\nline four');
    expect(error.message).toBe('template: 3:9: unexpected right paren');
    expect([error.line, error.column]).toEqual([3, 9]);
  });

  it('point at the end of the input for unclosed structures, naming the opener', () => {
    const error = parseError('{{range .X}}\n  {{if .Y}}\n{{end}}\n');
    expect(error.message).toBe('template: 4:1: unexpected EOF: {{range}} at 1:3 has no {{end}}');
  });

  it.each([
    ['{{}}', 'missing value for command'],
    ['{{if}}x{{end}}', 'missing value for if'],
    ['{{ .X', 'unclosed action'],
    ['{{ (.X }}', 'unclosed left paren'],
    ['{{end}}', 'unexpected {{end}}'],
    ['{{else}}', 'unexpected {{else}}'],
    ['{{end 1}}', 'unexpected "1" in end'],
    ['{{if .X}}a{{else}}b{{else}}c{{end}}', 'expected {{end}}; found {{else}}'],
    ['{{range .X}}a{{else if .Y}}b{{end}}', '{{else if}} cannot continue {{range}}'],
    ['{{nofunc 1}}', 'function "nofunc" not defined'],
    ['{{$x}}', 'undefined variable "$x"'],
    ['{{$x = 1}}', 'undefined variable "$x"'],
    ['{{$x := $x}}', 'undefined variable "$x"'],
    ['{{break}}', '{{break}} outside {{range}}'],
    ['{{if true}}{{continue}}{{end}}', '{{continue}} outside {{range}}'],
    ['{{template "x"}}', '{{template}} is not supported: templates cannot define or call other templates'],
    ['{{define "x"}}{{end}}', '{{define}} is not supported: templates cannot define or call other templates'],
    ['{{.X | "a"}}', 'non executable command in pipeline stage 2'],
    ['{{.X | }}', 'missing command after "|"'],
    ['{{ "a".X }}', 'unexpected . after term "\\"a\\""'],
    ['{{ @ }}', 'unexpected "@" in command'],
    ['{{ € }}', "unrecognized character in action: U+20AC '€'"],
    ['{{$x=1}}', "bad character U+003D '='"],
    ['{{ .X: }}', 'expected :='],
    ['{{range $i, $v, $w := .L}}{{end}}', 'too many declarations in range'],
    ['{{with $a, $b := .X}}{{end}}', 'too many declarations in with'],
    ['{{range $i, 3 := .L}}{{end}}', 'range can only initialize variables'],
    ['{{range $i, $v .L}}{{end}}', 'unexpected ".L" in range declaration'],
  ])('%s: %s', (source, detail) => {
    expect(parseError(source).detail).toBe(detail);
  });

  it('are reported in source order: the first mistake wins', () => {
    expect(parseError('{{if}}{{"unterminated}}').detail).toBe('missing value for if');
    expect(parseError('{{ .X } }}\n{{ .Y').detail).toBe('unexpected "}" in operand');
  });

  it('do not let a backslash escape the end of a line in a string', () => {
    expect(parseError('{{"a\\\nb"}}').detail).toBe('unterminated quoted string');
  });

  it('check variable scopes at parse time', () => {
    expect(parseError('{{if true}}{{$x := 1}}{{end}}{{$x}}').detail).toBe('undefined variable "$x"');
    expect(parseError('{{if true}}{{$x := 1}}{{else}}{{$x}}{{end}}').detail).toBe('undefined variable "$x"');
    expect(parseError('{{range $v := .L}}{{else}}{{$v}}{{end}}').detail).toBe('undefined variable "$v"');
  });
});

describe('parseTemplate', () => {
  it('returns the template when the source is valid', () => {
    const result = parseTemplate('{{.X}}');
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.template.render({ X: 1 })).toBe('1');
  });

  it('returns the error with its position instead of throwing', () => {
    const result = parseTemplate('ok\n{{if .X');
    expect(result).toMatchObject({ ok: false, error: { line: 2, column: 1, detail: 'unclosed action' } });
  });

  it('knows the custom functions it is given', () => {
    expect(parseTemplate('{{shout .}}').ok).toBe(false);
    expect(parseTemplate('{{shout .}}', { functions: { shout: (s: string) => s.toUpperCase() } }).ok).toBe(true);
  });
});
