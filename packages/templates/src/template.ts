import { TemplateParseError } from './errors.js';
import { Execution, type Program } from './execute.js';
import { fieldPrints } from './field-prints.js';
import { builtinFunctions, customFunction, type TemplateFunction } from './functions.js';
import { parse } from './parser.js';

export interface TemplateLimits {
  /** Largest output of one render, in UTF-8 bytes; also the longest string any function may return. */
  readonly maxOutputBytes: number;
  /** Range iterations allowed in one render, counted across all loops (nested loops multiply quickly). */
  readonly maxRangeIterations: number;
  /** Deepest nesting of if/with/range and parentheses; bounds the recursion of parsing and rendering. */
  readonly maxNestingDepth: number;
}

export const defaultTemplateLimits: TemplateLimits = Object.freeze({
  maxOutputBytes: 1024 * 1024,
  maxRangeIterations: 100_000,
  maxNestingDepth: 100,
});

export interface CompileOptions {
  /** Functions added to (or replacing) the built-in ones, by name. */
  readonly functions?: Readonly<Record<string, TemplateFunction>>;
  /** Built-in functions left out, by name (e.g. dynamic infos have only Go's and `lowercase`, `uppercase`, `split`, `trim`). */
  readonly exclude?: readonly string[];
  readonly limits?: Partial<TemplateLimits>;
}

export interface Template {
  readonly source: string;
  /**
   * For a template of only text and printed fields, the data paths it prints (`dc-{{.Event.Component}}`:
   * `[['Event', 'Component']]`), all its output depends on; undefined for other templates.
   */
  readonly printedPaths?: readonly (readonly string[])[];
  /** Renders with `data` as dot and `$`; throws `TemplateExecError`. */
  render(data?: unknown): string;
}

export type ParseResult = { readonly ok: true; readonly template: Template } | { readonly ok: false; readonly error: TemplateParseError };

const FUNCTION_NAME = /^[\p{L}_][\p{L}\p{Nd}_]*$/u;

/** Parses a template once; throws `TemplateParseError` (with `line` and `column`) if it is not valid. */
export function compile(source: string, options: CompileOptions = {}): Template {
  const limits = { ...defaultTemplateLimits, ...options.limits };
  const functions = builtinFunctions(limits.maxOutputBytes);
  for (const name of options.exclude ?? []) functions.delete(name);
  for (const [name, fn] of Object.entries(options.functions ?? {})) {
    if (!FUNCTION_NAME.test(name)) throw new TypeError(`template function name ${JSON.stringify(name)} is not a valid identifier`);
    if (typeof fn !== 'function') throw new TypeError(`template function ${JSON.stringify(name)} is not a function`);
    functions.set(name, customFunction(fn));
  }
  const { nodes, sourceMap } = parse(source, functions, limits.maxNestingDepth);
  const program: Program = { source, sourceMap, nodes, functions, bounds: limits };
  const execute = (data?: unknown): string => new Execution(program, data).run();
  const printed = fieldPrints(nodes, limits.maxOutputBytes);
  if (printed === undefined) return { source, render: execute };
  return { source, printedPaths: printed.paths, render: (data?: unknown) => printed.render(data) ?? execute(data) };
}

/** `compile` for validation: returns the parse error instead of throwing it (other errors still throw). */
export function parseTemplate(source: string, options?: CompileOptions): ParseResult {
  try {
    return { ok: true, template: compile(source, options) };
  } catch (err) {
    if (err instanceof TemplateParseError) return { ok: false, error: err };
    throw err;
  }
}
