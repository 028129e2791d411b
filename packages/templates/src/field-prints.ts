import type { Node, Operand } from './ast.js';
import { formatValue } from './format.js';
import { lookupKey } from './values.js';

/** A part of a field-print template: literal text, or the keys of a field looked up from the data. */
type Part = string | readonly string[];

/** What `fieldPrints` returns when the executor has to decide (an error to raise, a value too large to check here). */
const undecided = Symbol('undecided');

/** A field operand read from the data: `.A.B`, or `$.A.B` (`$` is the data where no variable is declared). */
function dataPath(operand: Operand): readonly string[] | undefined {
  if (operand.kind === 'field') return operand.path;
  if (operand.kind === 'variable' && operand.name === '$') return operand.path;
  return undefined;
}

/** The field an action prints when it is only a field (`{{.A.B}}`), or undefined. */
function printedPath(node: Node): readonly string[] | undefined {
  if (node.kind !== 'action') return undefined;
  const { declarations, commands } = node.pipeline;
  if (declarations.length > 0 || commands.length !== 1) return undefined;
  const args = (commands[0] as { args: readonly Operand[] }).args;
  return args.length === 1 ? dataPath(args[0] as Operand) : undefined;
}

/**
 * Follows `path` from `data` as the executor does: through maps by own key, through a missing or null value to no
 * value; `undecided` where the executor fails or gives fields to other kinds (`.Unix` of a date).
 */
function readPath(data: unknown, path: readonly string[]): unknown {
  let value = data;
  for (const key of path) {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'object' || Array.isArray(value) || value instanceof Date) return undecided;
    value = lookupKey(value, key);
  }
  return value;
}

/** A template of text and printed fields, rendered without the executor. */
export interface FieldPrints {
  /** The data paths the template prints: all of the data its output depends on. */
  readonly paths: readonly (readonly string[])[];
  /** The output, or undefined where the executor must run instead. */
  render(data: unknown): string | undefined;
}

/**
 * Most templates are text and printed fields (`dc-{{.Event.Component}}`): those render here by concatenation,
 * with the executor's output, instead of walking the tree. Returns undefined for any other template; `render`
 * gives undefined wherever the executor must run instead: a field it cannot read (the error to raise), a printed
 * map or array (printing may fail), an output that may exceed `maxOutputBytes`.
 */
export function fieldPrints(nodes: readonly Node[], maxOutputBytes: number): FieldPrints | undefined {
  const parts: Part[] = [];
  const paths: (readonly string[])[] = [];
  for (const node of nodes) {
    if (node.kind === 'text') {
      parts.push(node.text);
      continue;
    }
    const path = printedPath(node);
    if (path === undefined) return undefined;
    parts.push(path);
    paths.push(path);
  }
  const render = (data: unknown): string | undefined => {
    let output = '';
    for (const part of parts) {
      if (typeof part === 'string') {
        output += part;
        continue;
      }
      const value = readPath(data, part);
      if (typeof value === 'string') output += value;
      else if (value === undecided || (typeof value === 'object' && value !== null)) return undefined;
      else output += formatValue(value);
    }
    // A UTF-16 unit is at most 3 UTF-8 bytes: below this the executor's byte count cannot reach its bound.
    return output.length * 3 <= maxOutputBytes ? output : undefined;
  };
  return { paths, render };
}
