import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compile, defaultTemplateLimits, parseTemplate, TemplateExecError } from './index.js';

function execError(run: () => unknown): TemplateExecError {
  try {
    run();
  } catch (err) {
    if (err instanceof TemplateExecError) return err;
    throw err;
  }
  throw new Error('expected the render to fail');
}

describe('output size', () => {
  it('is capped at 1 MiB by default', () => {
    expect(defaultTemplateLimits.maxOutputBytes).toBe(1024 * 1024);
    const kilobyte = 'x'.repeat(1024);
    expect(compile(`{{range 1024}}${kilobyte}{{end}}`).render()).toHaveLength(1024 * 1024);
    const error = execError(() => compile(`{{range 1025}}${kilobyte}{{end}}`).render());
    expect(error.detail).toBe('output is larger than the limit of 1048576 bytes');
  });

  it('counts UTF-8 bytes, and can be lowered', () => {
    const template = compile('{{.}}', { limits: { maxOutputBytes: 100 } });
    expect(template.render('é'.repeat(50))).toHaveLength(50);
    expect(execError(() => template.render('é'.repeat(51))).detail).toBe('output is larger than the limit of 100 bytes');
  });

  it('also bounds strings built without being written, such as a doubling variable', () => {
    const template = compile('{{$s := "0123456789"}}{{range 40}}{{$s = print $s $s}}{{end}}{{len $s}}');
    expect(execError(() => template.render()).detail).toBe('result of print is longer than the limit of 1048576 characters');
  });

  it('bounds what replace builds while it builds it', () => {
    const template = compile('{{replace "" .With .In}}');
    const error = execError(() => template.render({ With: 'x'.repeat(1000), In: 'a'.repeat(2000) }));
    expect(error.detail).toBe('error calling replace: result is longer than 1048576 characters');
  });
});

describe('range iterations', () => {
  it('are capped across the whole render', () => {
    expect(defaultTemplateLimits.maxRangeIterations).toBe(100_000);
    expect(execError(() => compile('{{range 1000000000}}{{end}}').render()).detail).toBe('more than 100000 range iterations');
    expect(execError(() => compile('{{range 1000}}{{range 1000}}{{end}}{{end}}').render()).detail).toBe('more than 100000 range iterations');
  });

  it('can be lowered', () => {
    const template = compile('{{range .}}{{.}}{{end}}', { limits: { maxRangeIterations: 3 } });
    expect(template.render([1, 2, 3])).toBe('123');
    expect(execError(() => template.render([1, 2, 3, 4])).detail).toBe('more than 3 range iterations');
  });
});

describe('nesting depth', () => {
  it('is capped when parsing, for structures and parentheses', () => {
    const deepIf = `${'{{if 1}}'.repeat(101)}x${'{{end}}'.repeat(101)}`;
    expect(parseTemplate(deepIf)).toMatchObject({ ok: false, error: { detail: 'template nested more than 100 levels deep' } });
    expect(compile(`${'{{if 1}}'.repeat(100)}x${'{{end}}'.repeat(100)}`).render()).toBe('x');
    const deepParens = `{{${'('.repeat(101)}1${')'.repeat(101)}}}`;
    expect(parseTemplate(deepParens)).toMatchObject({ ok: false, error: { detail: 'template nested more than 100 levels deep' } });
  });

  it('is capped when printing nested or cyclic data', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    expect(execError(() => compile('{{.}}').render(cyclic)).detail).toBe('value nested more than 100 levels deep');
    expect(execError(() => compile('{{json .}}').render(cyclic)).detail).toMatch(/^error calling json: .*circular/i);
    expect(execError(() => compile('{{printf "%v" .}}').render(cyclic)).detail).toBe('error calling printf: value nested more than 100 levels deep');
  });
});

describe('prototypes', () => {
  it('are out of reach: only own keys of the data resolve', () => {
    const source = '{{.constructor}}|{{.__proto__}}|{{.toString}}|{{.hasOwnProperty}}|{{.constructor.name}}|{{index . "constructor"}}';
    expect(compile(source).render({ a: 1 })).toBe('<no value>|<no value>|<no value>|<no value>|<no value>|<no value>');
    expect(compile('{{.List.constructor}}').render).toBeDefined();
    expect(execError(() => compile('{{.List.constructor}}').render({ List: [] })).detail).toBe("can't evaluate field constructor in type array");
  });

  it('do not hide keys the data really has', () => {
    const data = JSON.parse('{"__proto__": {"x": 1}, "constructor": "c"}') as unknown;
    expect(compile('{{.__proto__.x}} {{.constructor}}').render(data)).toBe('1 c');
  });

  it('are not reached through range, len or printing either', () => {
    expect(compile('{{range $k, $v := .}}{{$k}};{{end}}{{len .}} {{.}}').render({ b: 1, a: 2 })).toBe('a;b;2 map[a:2 b:1]');
  });
});

describe('code execution', () => {
  it('is never used by the interpreter', () => {
    const sources = readdirSync(new URL('.', import.meta.url))
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .map((file) => readFileSync(new URL(file, import.meta.url), 'utf8'));
    expect(sources.length).toBeGreaterThan(5);
    for (const source of sources) expect(source).not.toMatch(/\beval\s*\(|\bFunction\s*\(|\bimport\s*\(/);
  });
});
