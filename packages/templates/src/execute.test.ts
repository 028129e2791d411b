import { describe, expect, it } from 'vitest';
import { compile, TemplateErrorCodes, TemplateExecError, type CompileOptions } from './index.js';

const render = (source: string, data?: unknown, options?: CompileOptions): string => compile(source, options).render(data);

/** The error a render throws. */
function execError(source: string, data?: unknown, options?: CompileOptions): TemplateExecError {
  try {
    compile(source, options).render(data);
  } catch (err) {
    if (err instanceof TemplateExecError) return err;
    throw err;
  }
  throw new Error(`expected ${JSON.stringify(source)} to fail`);
}

const data = {
  Alarm: { Value: { Component: 'srv-1', State: { Value: 3 }, Tags: ['db', 'prod'] } },
  Entity: { Infos: { site: { Value: 'Paris' } } },
  List: [10, 20, 30],
  Map: { b: 2, a: 1, c: 3 },
  Null: null,
  Date: new Date(Date.UTC(2024, 2, 5, 7, 8, 9)),
};

describe('fields', () => {
  it('follows keys from dot, including lower-case map keys', () => {
    expect(render('{{.Alarm.Value.Component}}/{{.Entity.Infos.site.Value}}', data)).toBe('srv-1/Paris');
  });

  it('prints <no value> for a missing key, however deep, like Go does for maps', () => {
    expect(render('{{.Missing}}|{{.Missing.Deeper.Still}}|{{.Entity.Infos.room.Value}}', data)).toBe('<no value>|<no value>|<no value>');
  });

  it('prints <nil> for null, and walks through null as through a missing key', () => {
    expect(render('{{.Null}}|{{.Null.Field}}', data)).toBe('<nil>|<no value>');
  });

  it('prints <no value> for dot when render gets no data', () => {
    expect(render('{{.}}')).toBe('<no value>');
  });

  it('looks up the exact key, case included', () => {
    expect(render('{{.alarm}}', data)).toBe('<no value>');
  });

  it('gives dates a Unix field in epoch seconds', () => {
    expect(render('{{.Date.Unix}}', data)).toBe('1709622489');
    expect(render('{{.Unix}}', new Date(1500))).toBe('1');
    expect(render('{{.Unix}}', new Date(-1500))).toBe('-2');
  });

  it('refuses fields of values that have none', () => {
    expect(execError('{{.Alarm.Value.Component.Name}}', data).detail).toBe("can't evaluate field Name in type string");
    expect(execError('{{.List.Length}}', data).detail).toBe("can't evaluate field Length in type array");
    expect(execError('{{.Date.Year}}', data).detail).toBe("can't evaluate field Year in type time");
    expect(execError('{{.Unix}}', new Date(NaN)).detail).toBe('invalid date');
  });

  it('refuses arguments to fields and constants', () => {
    expect(execError('{{.Map 1}}', data).detail).toBe('Map is not a method but has arguments');
    expect(execError('{{1 | .Map}}', data).detail).toBe('Map is not a method but has arguments');
    expect(execError('{{.Date.Unix 1}}', data).detail).toBe('wrong number of args for Unix: want 0 got 1');
    expect(execError('{{$ 1}}', data).detail).toBe("can't give argument to non-function $");
    expect(execError('{{1 2}}', data).detail).toBe("can't give argument to non-function 1");
    expect(execError('{{. "x"}}', data).detail).toBe("can't give argument to non-function .");
    expect(execError('{{nil}}', data).detail).toBe('nil is not a command');
  });
});

describe('printing values', () => {
  it('prints like Go: arrays in brackets, maps sorted, dates in UTC', () => {
    expect(render('{{.List}} {{.Map}} {{.Alarm.Value.State}} {{.Date}}', data)).toBe(
      '[10 20 30] map[a:1 b:2 c:3] map[Value:3] 2024-03-05 07:08:09 +0000 UTC',
    );
    expect(render('{{.}}', [null, true, 'x', [1, { k: [] }]])).toBe('[<nil> true x [1 map[k:[]]]]');
  });

  it('prints integers in full and other numbers like a float64', () => {
    expect(render('{{.}}', [1700000000, -3, 0.1, 1.5, 123456.5, 1234567.5, 0.0001, 0.00001, 1e21, NaN, Infinity, -Infinity])).toBe(
      '[1700000000 -3 0.1 1.5 123456.5 1.2345675e+06 0.0001 1e-05 1e+21 NaN +Inf -Inf]',
    );
  });
});

describe('if', () => {
  it.each([
    [false, 'no'],
    [0, 'no'],
    ['', 'no'],
    [[], 'no'],
    [{}, 'no'],
    [null, 'no'],
    [undefined, 'no'],
    [true, 'yes'],
    [-1, 'yes'],
    ['0', 'yes'],
    [[0], 'yes'],
    [{ a: 0 }, 'yes'],
    [new Date(0), 'yes'],
  ])('treats %j as Go does', (value, expected) => {
    expect(render('{{if .V}}yes{{else}}no{{end}}', { V: value })).toBe(expected);
  });

  it('chains else if', () => {
    const template = compile('{{if eq . 1}}one{{else if eq . 2}}two{{else if eq . 3}}three{{else}}many{{end}}');
    expect([1, 2, 3, 4].map((n) => template.render(n))).toEqual(['one', 'two', 'three', 'many']);
  });

  it('runs without else', () => {
    expect(render('a{{if .X}}b{{end}}c', {})).toBe('ac');
  });
});

describe('with', () => {
  it('sets dot to the value when it is truthy', () => {
    expect(render('{{with .Alarm.Value}}{{.Component}}{{end}}', data)).toBe('srv-1');
  });

  it('runs else with the outer dot otherwise', () => {
    expect(render('{{with .Missing}}{{.}}{{else}}{{.Alarm.Value.Component}}{{end}}', data)).toBe('srv-1');
  });

  it('chains else with', () => {
    expect(render('{{with .A}}a={{.}}{{else with .B}}b={{.}}{{else}}none{{end}}', { B: 2 })).toBe('b=2');
  });

  it('can declare a variable', () => {
    expect(render('{{with $v := .Entity.Infos.site}}{{$v.Value}}{{end}}', data)).toBe('Paris');
  });
});

describe('range', () => {
  it('iterates arrays with dot set to each element', () => {
    expect(render('{{range .List}}<{{.}}>{{end}}', data)).toBe('<10><20><30>');
  });

  it('binds the element to one variable, or the index and element to two', () => {
    expect(render('{{range $v := .List}}{{$v}},{{end}}', data)).toBe('10,20,30,');
    expect(render('{{range $i, $v := .List}}{{$i}}={{$v}} {{end}}', data)).toBe('0=10 1=20 2=30 ');
  });

  it('iterates maps in sorted key order', () => {
    expect(render('{{range .Map}}{{.}}{{end}}|{{range $k, $v := .Map}}{{$k}}{{$v}}{{end}}', data)).toBe('123|a1b2c3');
  });

  it('iterates an integer n from 0 to n-1', () => {
    expect(render('{{range 3}}{{.}}{{end}}|{{range $i := 2}}{{$i}}{{end}}|{{range 0}}x{{else}}none{{end}}')).toBe('012|01|none');
  });

  it('runs else when there is nothing to iterate', () => {
    const template = compile('{{range .}}x{{else}}empty{{end}}');
    expect([[], {}, null, undefined].map((value) => template.render(value))).toEqual(['empty', 'empty', 'empty', 'empty']);
  });

  it('keeps $ as the data, and nests', () => {
    expect(render('{{range .Alarm.Value.Tags}}{{.}}@{{$.Alarm.Value.Component}} {{end}}', data)).toBe('db@srv-1 prod@srv-1 ');
    expect(render('{{range .}}{{range .}}{{.}}{{end}};{{end}}', [[1, 2], [3]])).toBe('12;3;');
  });

  it('stops at break and skips at continue, for the innermost range only', () => {
    expect(render('{{range .}}{{if eq . 3}}{{break}}{{end}}{{.}}{{end}}', [1, 2, 3, 4])).toBe('12');
    expect(render('{{range .}}{{if eq . 2}}{{continue}}{{end}}{{.}}{{end}}', [1, 2, 3])).toBe('13');
    expect(render('{{range .}}[{{range .}}{{if eq . 2}}{{break}}{{end}}{{.}}{{end}}]{{end}}', [[1, 2, 3], [4]])).toBe('[1][4]');
  });

  it('refuses values it cannot iterate', () => {
    expect(execError('{{range .}}{{end}}', 'abc').detail).toBe("range can't iterate over abc");
    expect(execError('{{range .}}{{end}}', 1.5).detail).toBe("range can't iterate over 1.5");
  });
});

describe('variables', () => {
  it('declares without printing, and prints when used', () => {
    expect(render('{{$x := .Alarm.Value.Component}}[{{$x}}]', data)).toBe('[srv-1]');
  });

  it('follows fields from a variable', () => {
    expect(render('{{$a := .Alarm}}{{$a.Value.State.Value}}', data)).toBe('3');
  });

  it('assigns to the variable in the enclosing scope', () => {
    expect(render('{{$x := 1}}{{if true}}{{$x = 2}}{{end}}{{$x}}')).toBe('2');
    expect(render('{{$last := 0}}{{range .}}{{$last = .}}{{end}}{{$last}}', [4, 5, 6])).toBe('6');
  });

  it('shadows an outer variable until the end of the structure', () => {
    expect(render('{{$x := 1}}{{if true}}{{$x := 2}}{{$x}}{{end}}{{$x}}')).toBe('21');
  });

  it('starts afresh at each range iteration', () => {
    expect(render('{{range .}}{{$seen := .}}{{$seen}}{{end}}', [1, 2])).toBe('12');
  });

  it('makes if and with variables visible in else', () => {
    expect(render('{{if $x := .X}}yes{{else}}no:{{$x}}{{end}}', { X: 0 })).toBe('no:0');
  });

  it('lets range assign to existing variables', () => {
    expect(render('{{$i := 0}}{{$v := 0}}{{range $i, $v = .}}{{end}}{{$i}}:{{$v}}', ['a', 'b'])).toBe('1:b');
  });
});

describe('pipelines', () => {
  it('passes each value as the last argument of the next command', () => {
    expect(render('{{.Alarm.Value.Component | printf "%s!" | printf "<%s>"}}', data)).toBe('<srv-1!>');
    expect(render('{{"a" | printf "%s%s" "b"}}')).toBe('ba');
  });

  it('evaluates parenthesised pipelines as arguments', () => {
    expect(render('{{printf "%d items" (len .List)}}', data)).toBe('3 items');
    expect(render('{{(index .Alarm.Value.Tags 1) | uppercase}}', data)).toBe('PROD');
  });

  it('follows fields of parenthesised values and of function results', () => {
    expect(render('{{(index .Entity.Infos "site").Value}}', data)).toBe('Paris');
    const options = { functions: { now: () => new Date(2000) } };
    expect(render('{{now.Unix}} {{(now).Unix}}', {}, options)).toBe('2 2');
  });

  it('calls a function named as an argument without arguments', () => {
    expect(render('{{print answer}}', {}, { functions: { answer: () => 42 } })).toBe('42');
  });
});

describe('execution errors', () => {
  it('report position, failing command and Go-style message', () => {
    const error = execError('{{index .List 5}}', data);
    expect(error).toBeInstanceOf(TemplateExecError);
    expect(error.message).toBe('template: 1:3: executing at <index .List 5>: error calling index: index out of range: 5');
    expect(error).toMatchObject({ name: 'TemplateExecError', code: TemplateErrorCodes.Exec, line: 1, column: 3, context: 'index .List 5' });
  });

  it('count lines in multi-line templates and shorten long contexts', () => {
    const error = execError('{\n  "a": 1,\n  "b": {{ index .Alarm.Value.Tags 7 }}\n}', data);
    expect(error.message).toBe('template: 3:11: executing at <index .Alarm.Value.T...>: error calling index: index out of range: 7');
  });

  it('report wrong argument counts', () => {
    expect(execError('{{len 1 2}}').detail).toBe('wrong number of args for len: want 1 got 2');
    expect(execError('{{eq}}').detail).toBe('wrong number of args for eq: want at least 1 got 0');
    expect(execError('{{"x" | not true}}').detail).toBe('wrong number of args for not: want 1 got 2');
  });

  it('report errors raised by functions, keeping the cause', () => {
    const cause = new Error('backend down');
    const error = execError('{{lookup "x"}}', {}, { functions: { lookup: () => { throw cause; } } });
    expect(error.detail).toBe('error calling lookup: backend down');
    expect(error.cause).toBe(cause);
  });
});
