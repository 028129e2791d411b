import type { Command, ControlNode, Node, Operand, Pipeline } from './ast.js';
import { type SourceMap, TemplateExecError } from './errors.js';
import { formatValue } from './format.js';
import type { FunctionEntry, FunctionTable } from './functions.js';
import { unixSeconds } from './time.js';
import { isTruthy, kindOf, lookupKey, sortedEntries, typeName, utf8Length } from './values.js';

export interface ExecutionBounds {
  readonly maxOutputBytes: number;
  readonly maxRangeIterations: number;
}

export interface Program {
  readonly source: string;
  readonly sourceMap: SourceMap;
  readonly nodes: readonly Node[];
  readonly functions: FunctionTable;
  readonly bounds: ExecutionBounds;
}

interface Span {
  readonly pos: number;
  readonly end: number;
}

/** What `{{break}}` and `{{continue}}` send up to the innermost range. */
type LoopSignal = 'break' | 'continue' | undefined;

/** A value handed from one pipeline stage to the next; boxed because `undefined` (no value) is a value. */
type Piped = { readonly value: unknown } | undefined;

const CONTEXT_LENGTH = 20;

/** One rendering: output, variables and the counters the safety bounds apply to. */
export class Execution {
  private readonly output: string[] = [];
  private outputBytes = 0;
  private iterations = 0;
  private readonly variables: { readonly name: string; value: unknown }[];

  constructor(
    private readonly program: Program,
    private readonly data: unknown,
  ) {
    this.variables = [{ name: '$', value: data }];
  }

  run(): string {
    this.walkList(this.program.nodes, this.data);
    return this.output.join('');
  }

  private fail(pos: number, context: Span, detail: string, cause?: unknown): never {
    const text = this.program.source.slice(context.pos, context.end).replace(/\s+/g, ' ').trim();
    const shortened = text.length > CONTEXT_LENGTH ? `${text.slice(0, CONTEXT_LENGTH)}...` : text;
    throw new TemplateExecError(this.program.sourceMap.position(pos), shortened, detail, cause);
  }

  private write(text: string, context: Span): void {
    const { maxOutputBytes } = this.program.bounds;
    this.outputBytes += utf8Length(text);
    if (this.outputBytes > maxOutputBytes) this.fail(context.pos, context, `output is larger than the limit of ${maxOutputBytes} bytes`);
    this.output.push(text);
  }

  private walkList(nodes: readonly Node[], dot: unknown): LoopSignal {
    for (const node of nodes) {
      const signal = this.walk(node, dot);
      if (signal) return signal;
    }
    return undefined;
  }

  private walk(node: Node, dot: unknown): LoopSignal {
    switch (node.kind) {
      case 'text':
        this.write(node.text, node);
        return undefined;
      case 'action': {
        const value = this.evalPipeline(dot, node.pipeline);
        // Like Go, an action that declares or assigns a variable prints nothing.
        if (node.pipeline.declarations.length === 0) this.write(this.print(value, node.pipeline), node.pipeline);
        return undefined;
      }
      case 'if':
      case 'with': {
        const scope = this.variables.length;
        const value = this.evalPipeline(dot, node.pipeline);
        let signal: LoopSignal;
        if (isTruthy(value)) signal = this.walkList(node.list, node.kind === 'with' ? value : dot);
        else if (node.elseList) signal = this.walkList(node.elseList, dot);
        this.variables.length = scope;
        return signal;
      }
      case 'range':
        return this.range(node, dot);
      default:
        return node.kind;
    }
  }

  private print(value: unknown, context: Span): string {
    try {
      return formatValue(value);
    } catch (err) {
      return this.fail(context.pos, context, (err as Error).message, err);
    }
  }

  private range(node: ControlNode, dot: unknown): LoopSignal {
    const { pipeline } = node;
    const scope = this.variables.length;
    const collection = this.evalCommands(dot, pipeline);
    const { declarations, isAssign } = pipeline;
    if (!isAssign) for (const name of declarations) this.variables.push({ name, value: undefined });
    let empty = true;
    for (const [key, element] of this.rangeEntries(collection, pipeline)) {
      empty = false;
      this.iterations += 1;
      const { maxRangeIterations } = this.program.bounds;
      if (this.iterations > maxRangeIterations) this.fail(pipeline.pos, pipeline, `more than ${maxRangeIterations} range iterations`);
      // One variable receives the element; two receive the index (or key) and the element.
      const values = declarations.length === 2 ? [key, element] : [element];
      declarations.forEach((name, i) => {
        if (isAssign) this.assign(name, values[i], pipeline);
        else (this.variables[scope + i] as { value: unknown }).value = values[i];
      });
      const bodyScope = this.variables.length;
      const signal = this.walkList(node.list, element);
      this.variables.length = bodyScope;
      if (signal === 'break') break;
    }
    this.variables.length = scope;
    return empty && node.elseList ? this.walkList(node.elseList, dot) : undefined;
  }

  private *rangeEntries(collection: unknown, pipeline: Pipeline): Generator<[unknown, unknown]> {
    switch (kindOf(collection)) {
      case 'array': {
        const items = collection as unknown[];
        for (let i = 0; i < items.length; i++) yield [i, items[i]];
        return;
      }
      case 'map':
        yield* sortedEntries(collection as object);
        return;
      case 'number':
        // Go 1.22 ranges over an integer n as 0 to n-1.
        if (Number.isInteger(collection)) {
          for (let i = 0; i < (collection as number); i++) yield [i, i];
          return;
        }
        break;
      case 'none':
      case 'nil':
        return;
      default:
        break;
    }
    this.fail(pipeline.pos, pipeline, `range can't iterate over ${this.print(collection, pipeline)}`);
  }

  private evalPipeline(dot: unknown, pipeline: Pipeline): unknown {
    const value = this.evalCommands(dot, pipeline);
    for (const name of pipeline.declarations) {
      if (pipeline.isAssign) this.assign(name, value, pipeline);
      else this.variables.push({ name, value });
    }
    return value;
  }

  /** Runs the commands of a pipeline, each receiving the previous one's value as its last argument. */
  private evalCommands(dot: unknown, pipeline: Pipeline): unknown {
    let piped: Piped;
    for (const command of pipeline.commands) piped = { value: this.evalCommand(dot, command, piped) };
    return piped?.value;
  }

  private evalCommand(dot: unknown, command: Command, piped: Piped): unknown {
    const [first, ...args] = command.args as [Operand, ...Operand[]];
    const argumentCount = args.length + (piped ? 1 : 0);
    switch (first.kind) {
      case 'function':
        return this.call(dot, first, args, piped, command);
      case 'field':
        return this.walkPath(dot, first.path, argumentCount, first, command);
      case 'variable':
        return this.walkPath(this.variable(first.name, first.pos, command), first.path, argumentCount, first, command);
      case 'chain':
        return this.walkPath(this.evalArg(dot, first.target, command), first.path, argumentCount, first, command);
      case 'nil':
        return this.fail(first.pos, command, 'nil is not a command');
      default:
        if (argumentCount > 0) this.notAFunction(first, command);
        return this.evalArg(dot, first, command);
    }
  }

  /** Follows `.A.B` from a value; only the last key may be given arguments, and then it is an error. */
  private walkPath(receiver: unknown, path: readonly string[], argumentCount: number, operand: Operand, command: Command): unknown {
    if (path.length === 0 && argumentCount > 0) this.notAFunction(operand, command);
    let value = receiver;
    path.forEach((name, i) => {
      value = this.field(value, name, i === path.length - 1 ? argumentCount : 0, operand.pos, command);
    });
    return value;
  }

  private field(receiver: unknown, name: string, argumentCount: number, pos: number, command: Command): unknown {
    switch (kindOf(receiver)) {
      case 'none':
      case 'nil':
        // Walking through a missing or null value yields no value instead of failing (Go fails on nil).
        return undefined;
      case 'map':
        if (argumentCount > 0) this.fail(pos, command, `${name} is not a method but has arguments`);
        return lookupKey(receiver as object, name);
      case 'time':
        if (name !== 'Unix') break;
        if (argumentCount > 0) this.fail(pos, command, `wrong number of args for Unix: want 0 got ${argumentCount}`);
        try {
          return unixSeconds(receiver as Date);
        } catch (err) {
          return this.fail(pos, command, (err as Error).message, err);
        }
      default:
        break;
    }
    return this.fail(pos, command, `can't evaluate field ${name} in type ${typeName(receiver)}`);
  }

  private notAFunction(operand: Operand, command: Command): never {
    return this.fail(operand.pos, command, `can't give argument to non-function ${this.program.source.slice(operand.pos, operand.end)}`);
  }

  private evalArg(dot: unknown, operand: Operand, command: Command): unknown {
    switch (operand.kind) {
      case 'field':
        return this.walkPath(dot, operand.path, 0, operand, command);
      case 'variable':
        return this.walkPath(this.variable(operand.name, operand.pos, command), operand.path, 0, operand, command);
      case 'chain':
        return this.walkPath(this.evalArg(dot, operand.target, command), operand.path, 0, operand, command);
      case 'dot':
        return dot;
      case 'nil':
        return null;
      case 'literal':
        return operand.value;
      case 'function':
        // A function name used as an argument is called without arguments, as in Go.
        return this.call(dot, operand, [], undefined, command);
      case 'pipeline':
        return this.evalPipeline(dot, operand.pipeline);
    }
  }

  private call(dot: unknown, fn: Extract<Operand, { kind: 'function' }>, argNodes: readonly Operand[], piped: Piped, command: Command): unknown {
    const entry = this.program.functions.get(fn.name) as FunctionEntry;
    const count = argNodes.length + (piped ? 1 : 0);
    if (count < entry.minArgs || count > entry.maxArgs) {
      const wanted = entry.maxArgs === Infinity ? `at least ${entry.minArgs}` : String(entry.minArgs);
      this.fail(fn.pos, command, `wrong number of args for ${fn.name}: want ${wanted} got ${count}`);
    }
    const args: unknown[] = [];
    for (const node of argNodes) {
      const value = this.evalArg(dot, node, command);
      if (entry.shortCircuit && isTruthy(value) === (entry.shortCircuit === 'or')) return value;
      args.push(value);
    }
    if (piped) args.push(piped.value);
    // Go hands a function nil where a value is missing; and/or return their arguments untouched.
    const values = entry.shortCircuit ? args : args.map((value) => (value === undefined ? null : value));
    let result: unknown;
    try {
      result = entry.call(values);
    } catch (err) {
      this.fail(fn.pos, command, `error calling ${fn.name}: ${err instanceof Error ? err.message : String(err)}`, err);
    }
    const { maxOutputBytes } = this.program.bounds;
    if (typeof result === 'string' && result.length > maxOutputBytes) {
      this.fail(fn.pos, command, `result of ${fn.name} is longer than the limit of ${maxOutputBytes} characters`);
    }
    return result;
  }

  private variable(name: string, pos: number, command: Command): unknown {
    for (let i = this.variables.length - 1; i >= 0; i--) {
      const variable = this.variables[i] as { name: string; value: unknown };
      if (variable.name === name) return variable.value;
    }
    // Reachable only when and/or skipped the parenthesized pipeline that declares the variable.
    return this.fail(pos, command, `undefined variable: ${name}`);
  }

  private assign(name: string, value: unknown, context: Span): void {
    for (let i = this.variables.length - 1; i >= 0; i--) {
      const variable = this.variables[i] as { name: string; value: unknown };
      if (variable.name === name) {
        variable.value = value;
        return;
      }
    }
    this.fail(context.pos, context, `undefined variable: ${name}`);
  }
}
