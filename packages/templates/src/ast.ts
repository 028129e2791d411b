/** The parsed form of a template. Offsets (`pos`, `end`) index the source, for error positions and contexts. */

export type Operand =
  /** `.A.B`: keys looked up from dot. */
  | { readonly kind: 'field'; readonly pos: number; readonly end: number; readonly path: readonly string[] }
  /** `$x.A.B`; `$` alone is the data passed to `render`. */
  | { readonly kind: 'variable'; readonly pos: number; readonly end: number; readonly name: string; readonly path: readonly string[] }
  /** `(pipeline).A` or `fn.A`: keys looked up from another operand's value. */
  | { readonly kind: 'chain'; readonly pos: number; readonly end: number; readonly target: Operand; readonly path: readonly string[] }
  | { readonly kind: 'dot'; readonly pos: number; readonly end: number }
  | { readonly kind: 'nil'; readonly pos: number; readonly end: number }
  | { readonly kind: 'literal'; readonly pos: number; readonly end: number; readonly value: string | number | boolean }
  | { readonly kind: 'function'; readonly pos: number; readonly end: number; readonly name: string }
  | { readonly kind: 'pipeline'; readonly pos: number; readonly end: number; readonly pipeline: Pipeline };

/** One stage of a pipeline: an operand, possibly a function, followed by its arguments. */
export interface Command {
  readonly pos: number;
  readonly end: number;
  readonly args: readonly Operand[];
}

export interface Pipeline {
  readonly pos: number;
  readonly end: number;
  /** `$x :=` or `$x =` (or `$i, $v :=` in a range) before the commands. */
  readonly declarations: readonly string[];
  readonly isAssign: boolean;
  readonly commands: readonly Command[];
}

/** `{{if}}`, `{{with}}` or `{{range}}`; `{{else if}}` is an else list holding one nested `if`. */
export interface ControlNode {
  readonly kind: 'if' | 'with' | 'range';
  readonly pipeline: Pipeline;
  readonly list: readonly Node[];
  readonly elseList: readonly Node[] | undefined;
}

export type Node =
  | { readonly kind: 'text'; readonly pos: number; readonly end: number; readonly text: string }
  | { readonly kind: 'action'; readonly pipeline: Pipeline }
  | ControlNode
  | { readonly kind: 'break' | 'continue'; readonly pos: number; readonly end: number };
