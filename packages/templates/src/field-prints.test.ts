import { describe, expect, it } from 'vitest';
import { Execution } from './execute.js';
import { fieldPrints } from './field-prints.js';
import { builtinFunctions } from './functions.js';
import { compile } from './index.js';
import { parse } from './parser.js';

/** A render's output, or the error it throws (message and code), to compare renders that may fail. */
function outcome(render: () => string): { output: string } | { error: string; code: unknown } {
  try {
    return { output: render() };
  } catch (err) {
    return { error: (err as Error).message, code: (err as { code?: unknown }).code };
  }
}

/** The general executor's outcome, without the field-print shortcut `compile` takes. */
function executed(source: string, data: unknown, maxOutputBytes = 1024 * 1024): ReturnType<typeof outcome> {
  const functions = builtinFunctions(maxOutputBytes);
  const { nodes, sourceMap } = parse(source, functions, 100);
  return outcome(() => new Execution({ source, sourceMap, nodes, functions, bounds: { maxOutputBytes, maxRangeIterations: 100_000 } }, data).run());
}

function shortcut(source: string, maxOutputBytes = 1024 * 1024): (data: unknown) => string | undefined {
  const printed = fieldPrints(parse(source, builtinFunctions(maxOutputBytes), 100).nodes, maxOutputBytes);
  if (printed === undefined) throw new Error(`${source} should be a field-print template`);
  return printed.render;
}

const fieldPrintSources = [
  '',
  'plain text',
  'dc-{{.Event.Component}}',
  '{{.RegexMatch.Output.code}}/{{.RegexMatch.Output.num}}',
  '{{ .Event.State }} {{.Event.Debug}} {{.Event.Ratio}}',
  '{{$.Event.Component}}-{{.Missing}}-{{.Event.Missing.Deeper}}',
  '{{.Null}}|{{.Null.Field}}|{{.Event.Component.Name}}',
  '{{.List}}|{{.Map}}|{{.Date}}|{{.Date.Unix}}|{{.List.Length}}',
  '{{- .Event.Component -}} é {{.Event.Resource}}',
  '{{.constructor}}{{.Event.toString}}{{.__proto__}}',
  '{{/* a comment */}}{{.Event.Component}}',
  '{{$}}|{{$.Event}}',
];

const dataSets: unknown[] = [
  undefined,
  null,
  'a string',
  42,
  [1, 2],
  new Date(Date.UTC(2024, 2, 5)),
  {},
  {
    Event: { Component: 'srv-1', Resource: 'disk', State: 3, Debug: false, Ratio: 0.25, Missing: null },
    RegexMatch: { Output: { code: 'ERR', num: '12' } },
    Null: null,
    List: ['a', 1],
    Map: { b: 2, a: 'x' },
    Date: new Date(Date.UTC(2024, 2, 5, 7, 8, 9)),
  },
  { Event: { Component: 3, Resource: null, State: '3', Debug: 'yes', Ratio: Number.NaN }, RegexMatch: {} },
  { Event: { Component: ['x'], Resource: { nested: true }, State: 1e21 }, RegexMatch: { Output: 'ERR' } },
  { Event: 'not a map', RegexMatch: null },
  { Event: Object.create({ Component: 'inherited' }) as object },
  { Event: { Component: () => 'fn' }, constructor: 'own', __proto__: null },
];

describe('field-print templates', () => {
  it('render as the executor does, output or error, over varied data', () => {
    for (const source of fieldPrintSources) {
      shortcut(source);
      dataSets.forEach((data, i) => {
        expect(outcome(() => compile(source).render(data)), `${source} over data set ${i}`).toEqual(executed(source, data));
      });
    }
  });

  it('are concatenated without the executor for strings, numbers, booleans, missing and null values', () => {
    const data = dataSets[7];
    expect(shortcut('dc-{{.Event.Component}}')(data)).toBe('dc-srv-1');
    expect(shortcut('{{.RegexMatch.Output.code}}/{{.RegexMatch.Output.num}}')(data)).toBe('ERR/12');
    expect(shortcut('{{ .Event.State }} {{.Event.Debug}} {{.Event.Ratio}}')(data)).toBe('3 false 0.25');
    expect(shortcut('{{.Missing}}|{{.Null}}|{{.Null.Field}}')(data)).toBe('<no value>|<nil>|<no value>');
  });

  it('leave to the executor what may fail or print a composite value', () => {
    const data = dataSets[7];
    expect(shortcut('{{.Event.Component.Name}}')(data)).toBeUndefined();
    expect(shortcut('{{.List}}')(data)).toBeUndefined();
    expect(shortcut('{{.Date.Unix}}')(data)).toBeUndefined();
  });

  it('keep the output bound: near it, the executor counts the bytes', () => {
    const source = '{{.Event.Component}}';
    for (const component of ['é'.repeat(50), 'é'.repeat(51), 'x'.repeat(33), 'x'.repeat(101), '😀'.repeat(25), '😀'.repeat(26)]) {
      const data = { Event: { Component: component } };
      expect(outcome(() => compile(source, { limits: { maxOutputBytes: 100 } }).render(data))).toEqual(executed(source, data, 100));
    }
    expect(shortcut(source, 100)({ Event: { Component: 'x'.repeat(33) } })).toBe('x'.repeat(33));
    expect(shortcut(source, 100)({ Event: { Component: 'x'.repeat(34) } })).toBeUndefined();
  });

  it('are only text and printed fields', () => {
    for (const source of ['{{.}}', '{{.A | len}}', '{{print .A}}', '{{$x := .A}}{{$x}}', '{{if .A}}a{{end}}', '{{(.A).B}}', '{{"text"}}', '{{range .A}}{{end}}']) {
      expect(fieldPrints(parse(source, builtinFunctions(100), 100).nodes, 100), source).toBeUndefined();
      expect(compile(source).printedPaths, source).toBeUndefined();
    }
  });

  it('tell the paths they print, all their output depends on', () => {
    expect(compile('dc-{{.Event.Component}}').printedPaths).toEqual([['Event', 'Component']]);
    expect(compile('{{.RegexMatch.Output.code}}/{{$.Event.State}}/{{.Event}}').printedPaths).toEqual([
      ['RegexMatch', 'Output', 'code'],
      ['Event', 'State'],
      ['Event'],
    ]);
    expect(compile('text only').printedPaths).toEqual([]);
  });
});
