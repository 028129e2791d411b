import type { Command, Node, Operand, Pipeline } from './ast.js';
import { SourceMap, TemplateParseError } from './errors.js';
import { quoteGo } from './format.js';
import type { FunctionTable } from './functions.js';
import { describeToken, tokenize, type Token, type TokenKind } from './lexer.js';

/** `{{end}}` and `{{else}}` close a list; they are returned to the control structure that owns the list. */
type ListEnd = { readonly kind: 'end'; readonly token: Token } | { readonly kind: 'else'; readonly token: Token; readonly chained: 'if' | 'with' | undefined };

const OPERAND_STARTS = new Set<TokenKind>(['bool', 'charConstant', 'dot', 'field', 'identifier', 'number', 'nil', 'rawString', 'string', 'variable', 'leftParen']);
const SIMPLE_ESCAPES = new Map([
  ['a', 0x07],
  ['b', 0x08],
  ['f', 0x0c],
  ['n', 0x0a],
  ['r', 0x0d],
  ['t', 0x09],
  ['v', 0x0b],
  ['\\', 0x5c],
]);
interface NumericEscape {
  readonly pattern: RegExp;
  readonly length: number;
  readonly digitsFrom: number;
  readonly radix: number;
  readonly isByte: boolean;
}
const NUMERIC_ESCAPES = new Map<string, NumericEscape>([
  ['x', { pattern: /^\\x[0-9a-fA-F]{2}$/, length: 4, digitsFrom: 2, radix: 16, isByte: true }],
  ['u', { pattern: /^\\u[0-9a-fA-F]{4}$/, length: 6, digitsFrom: 2, radix: 16, isByte: false }],
  ['U', { pattern: /^\\U[0-9a-fA-F]{8}$/, length: 10, digitsFrom: 2, radix: 16, isByte: false }],
]);
const OCTAL_ESCAPE: NumericEscape = { pattern: /^\\[0-7]{3}$/, length: 4, digitsFrom: 1, radix: 8, isByte: true };
const encoder = new TextEncoder();
const decoder = new TextDecoder();

export interface ParsedTemplate {
  readonly nodes: readonly Node[];
  readonly sourceMap: SourceMap;
}

export function parse(source: string, functions: FunctionTable, maxNestingDepth: number): ParsedTemplate {
  const sourceMap = new SourceMap(source);
  return { nodes: new Parser(source, tokenize(source, sourceMap), sourceMap, functions, maxNestingDepth).parseTemplate(), sourceMap };
}

/**
 * A recursive-descent parser following the structure of Go's `text/template/parse`, including its scoping:
 * variables are checked at parse time and live until the `{{end}}` of the structure declaring them.
 */
class Parser {
  /** The tokens read so far; `index` may back up over them. */
  private readonly tokens: Token[] = [];
  private index = 0;
  /** Variables in scope, innermost last. */
  private readonly variables: string[] = ['$'];
  private depth = 0;
  private rangeDepth = 0;

  constructor(
    private readonly source: string,
    private readonly lexer: Iterator<Token, void>,
    private readonly sourceMap: SourceMap,
    private readonly functions: FunctionTable,
    private readonly maxNestingDepth: number,
  ) {}

  parseTemplate(): Node[] {
    const nodes: Node[] = [];
    while (this.peek().kind !== 'eof') {
      const item = this.textOrAction();
      if (item.kind === 'end' || item.kind === 'else') this.fail(item.token.pos, `unexpected {{${item.kind}}}`);
      nodes.push(item);
    }
    return nodes;
  }

  private fail(pos: number, message: string): never {
    throw new TemplateParseError(this.sourceMap.position(pos), message);
  }

  private unexpected(token: Token, context: string): never {
    this.fail(token.pos, `unexpected ${describeToken(token)} in ${context}`);
  }

  private peek(): Token {
    // The lexer ends with an eof token, past which the parser never reads.
    while (this.index >= this.tokens.length) this.tokens.push(this.lexer.next().value as Token);
    return this.tokens[this.index] as Token;
  }

  private next(): Token {
    const token = this.peek();
    if (token.kind !== 'eof') this.index += 1;
    return token;
  }

  private backup(): void {
    this.index -= 1;
  }

  private peekNonSpace(): Token {
    while (this.peek().kind === 'space') this.index += 1;
    return this.peek();
  }

  private nextNonSpace(): Token {
    this.peekNonSpace();
    return this.next();
  }

  private enter(pos: number): void {
    this.depth += 1;
    if (this.depth > this.maxNestingDepth) this.fail(pos, `template nested more than ${this.maxNestingDepth} levels deep`);
  }

  private textOrAction(): Node | ListEnd {
    const token = this.next();
    if (token.kind === 'text') return { kind: 'text', pos: token.pos, end: token.end, text: token.text };
    if (token.kind !== 'leftDelim') this.unexpected(token, 'input');
    const keyword = this.peekNonSpace();
    if (keyword.kind !== 'keyword') return { kind: 'action', pipeline: this.pipeline('command', 'rightDelim') };
    this.next();
    switch (keyword.text) {
      case 'if':
      case 'with':
      case 'range':
        return this.control(keyword.text, keyword);
      case 'else': {
        const chained = this.peekNonSpace();
        if (chained.kind === 'keyword' && (chained.text === 'if' || chained.text === 'with')) {
          this.next();
          return { kind: 'else', token: keyword, chained: chained.text };
        }
        this.expectRightDelim('else');
        return { kind: 'else', token: keyword, chained: undefined };
      }
      case 'end':
        this.expectRightDelim('end');
        return { kind: 'end', token: keyword };
      case 'break':
      case 'continue': {
        const close = this.expectRightDelim(keyword.text);
        if (this.rangeDepth === 0) this.fail(keyword.pos, `{{${keyword.text}}} outside {{range}}`);
        return { kind: keyword.text, pos: token.pos, end: close.end };
      }
      default:
        return this.fail(keyword.pos, `{{${keyword.text}}} is not supported: templates cannot define or call other templates`);
    }
  }

  private expectRightDelim(context: string): Token {
    const token = this.nextNonSpace();
    if (token.kind !== 'rightDelim') this.unexpected(token, context);
    return token;
  }

  /** `{{if}}`, `{{with}}` and `{{range}}`, with their optional `{{else}}` (or `{{else if}}`, `{{else with}}`). */
  private control(kind: 'if' | 'with' | 'range', opener: Token): Node {
    this.enter(opener.pos);
    const outerScope = this.variables.length;
    const pipeline = this.pipeline(kind, 'rightDelim');
    // Variables declared by an if/with pipeline are visible in both branches; a range's only in its body.
    const branchScope = kind === 'range' ? outerScope : this.variables.length;
    if (kind === 'range') this.rangeDepth += 1;
    const [list, listEnd] = this.itemList(kind, opener);
    if (kind === 'range') this.rangeDepth -= 1;
    this.variables.length = branchScope;
    let elseList: Node[] | undefined;
    if (listEnd.kind === 'else' && listEnd.chained !== undefined) {
      if (listEnd.chained !== kind) this.fail(listEnd.token.pos, `{{else ${listEnd.chained}}} cannot continue {{${kind}}}`);
      // `{{else if x}}...{{end}}` is `{{else}}{{if x}}...{{end}}{{end}}` sharing one {{end}}.
      elseList = [this.control(listEnd.chained, listEnd.token)];
    } else if (listEnd.kind === 'else') {
      const [branch, branchEnd] = this.itemList(kind, opener);
      if (branchEnd.kind !== 'end') this.fail(branchEnd.token.pos, 'expected {{end}}; found {{else}}');
      elseList = branch;
    }
    this.variables.length = outerScope;
    this.depth -= 1;
    return { kind, pipeline, list, elseList };
  }

  private itemList(kind: string, opener: Token): [Node[], ListEnd] {
    const nodes: Node[] = [];
    for (;;) {
      if (this.peek().kind === 'eof') {
        const { line, column } = this.sourceMap.position(opener.pos);
        this.fail(this.peek().pos, `unexpected EOF: {{${kind}}} at ${line}:${column} has no {{end}}`);
      }
      const item = this.textOrAction();
      if (item.kind === 'end' || item.kind === 'else') return [nodes, item];
      nodes.push(item);
    }
  }

  private pipeline(context: string, end: 'rightDelim' | 'rightParen'): Pipeline {
    const start = this.peekNonSpace();
    const declarations: string[] = [];
    let isAssign = false;
    const startIndex = this.index;
    if (start.kind === 'variable') {
      this.next();
      const operator = this.peekNonSpace();
      if (operator.kind === 'declare' || operator.kind === 'assign') {
        this.next();
        declarations.push(start.text);
        isAssign = operator.kind === 'assign';
      } else if (operator.kind === 'char' && operator.text === ',') {
        if (context !== 'range') this.fail(operator.pos, `too many declarations in ${context}`);
        this.next();
        const second = this.nextNonSpace();
        if (second.kind !== 'variable') this.fail(second.pos, 'range can only initialize variables');
        const secondOperator = this.nextNonSpace();
        if (secondOperator.kind === 'char' && secondOperator.text === ',') this.fail(secondOperator.pos, 'too many declarations in range');
        if (secondOperator.kind !== 'declare' && secondOperator.kind !== 'assign') this.unexpected(secondOperator, 'range declaration');
        declarations.push(start.text, second.text);
        isAssign = secondOperator.kind === 'assign';
      } else {
        this.index = startIndex;
      }
    }
    if (isAssign) for (const name of declarations) this.useVariable(name, start.pos);

    const commands: Command[] = [];
    let afterPipe = false;
    for (;;) {
      const token = this.nextNonSpace();
      if (token.kind === end) {
        if (commands.length === 0) this.fail(token.pos, `missing value for ${context}`);
        if (afterPipe) this.fail(token.pos, 'missing command after "|"');
        // Declared only now, so that a declaration cannot refer to the variable it declares.
        if (!isAssign) this.variables.push(...declarations);
        return { pos: start.pos, end: token.pos, declarations, isAssign, commands };
      }
      if (!OPERAND_STARTS.has(token.kind)) this.unexpected(token, context);
      this.backup();
      const command = this.command();
      const first = command.args[0] as Operand;
      if (commands.length > 0 && (first.kind === 'literal' || first.kind === 'dot' || first.kind === 'nil')) {
        this.fail(command.pos, `non executable command in pipeline stage ${commands.length + 1}`);
      }
      commands.push(command);
      afterPipe = this.tokens[this.index - 1]?.kind === 'pipe';
    }
  }

  /** Operands up to a `|` (consumed) or the end of the pipeline (left for the caller). */
  private command(): Command {
    const args: Operand[] = [];
    const pos = this.peekNonSpace().pos;
    let end = pos;
    for (;;) {
      this.peekNonSpace();
      const operand = this.operand();
      if (operand) {
        args.push(operand);
        end = operand.end;
      }
      const token = this.next();
      if (token.kind === 'space') continue;
      if (token.kind === 'rightDelim' || token.kind === 'rightParen') this.backup();
      else if (token.kind !== 'pipe') this.unexpected(token, 'operand');
      break;
    }
    const command = { pos, end, args };
    this.checkLiteralArguments(command);
    return command;
  }

  /** Lets a function refuse literal arguments at parse time, so that a broken regular expression fails on save. */
  private checkLiteralArguments(command: Command): void {
    const [first, ...args] = command.args;
    if (first?.kind !== 'function') return;
    const check = this.functions.get(first.name)?.checkLiterals;
    try {
      check?.(args.map((arg) => (arg.kind === 'literal' ? arg.value : undefined)));
    } catch (err) {
      this.fail(first.pos, `invalid argument for ${first.name}: ${(err as Error).message}`);
    }
  }

  private operand(): Operand | undefined {
    const term = this.term();
    if (!term || this.peek().kind !== 'field') return term;
    const path: string[] = [];
    while (this.peek().kind === 'field') path.push(this.next().text.slice(1));
    switch (term.kind) {
      case 'field':
      case 'variable':
        return { ...term, end: this.previousEnd(), path: [...term.path, ...path] };
      case 'literal':
      case 'nil':
      case 'dot':
        return this.fail(term.pos, `unexpected . after term ${quoteGo(this.source.slice(term.pos, term.end))}`);
      default:
        return { kind: 'chain', pos: term.pos, end: this.previousEnd(), target: term, path };
    }
  }

  private term(): Operand | undefined {
    const token = this.nextNonSpace();
    const { pos, end } = token;
    switch (token.kind) {
      case 'identifier':
        if (!this.functions.has(token.text)) this.fail(pos, `function ${quoteGo(token.text)} not defined`);
        return { kind: 'function', pos, end, name: token.text };
      case 'dot':
        return { kind: 'dot', pos, end };
      case 'nil':
        return { kind: 'nil', pos, end };
      case 'variable':
        this.useVariable(token.text, pos);
        return { kind: 'variable', pos, end, name: token.text, path: [] };
      case 'field':
        return { kind: 'field', pos, end, path: [token.text.slice(1)] };
      case 'bool':
        return { kind: 'literal', pos, end, value: token.text === 'true' };
      case 'number':
        return { kind: 'literal', pos, end, value: this.number(token) };
      case 'charConstant':
        return { kind: 'literal', pos, end, value: this.characterConstant(token) };
      case 'string':
        return { kind: 'literal', pos, end, value: this.quotedString(token) };
      case 'rawString':
        // Like Go, carriage returns inside raw strings are dropped.
        return { kind: 'literal', pos, end, value: token.text.slice(1, -1).replace(/\r/g, '') };
      case 'leftParen': {
        this.enter(pos);
        const pipeline = this.pipeline('parenthesized pipeline', 'rightParen');
        this.depth -= 1;
        return { kind: 'pipeline', pos, end: this.previousEnd(), pipeline };
      }
      default:
        this.backup();
        return undefined;
    }
  }

  private previousEnd(): number {
    return (this.tokens[this.index - 1] as Token).end;
  }

  private useVariable(name: string, pos: number): void {
    if (!this.variables.includes(name)) this.fail(pos, `undefined variable ${quoteGo(name)}`);
  }

  private number(token: Token): number {
    const text = token.text.replace(/_/g, '');
    const sign = text.startsWith('-') ? -1 : 1;
    const unsigned = text.replace(/^[+-]/, '');
    // Go reads a leading 0 followed by octal digits as octal, as in C.
    const value = /^0[0-7]+$/.test(unsigned) ? parseInt(unsigned, 8) : Number(unsigned);
    if (unsigned === '' || Number.isNaN(value)) this.fail(token.pos, `illegal number syntax: ${quoteGo(token.text)}`);
    return sign * value;
  }

  /**
   * Reads the escape sequence at `index` (a backslash) in a quoted literal. `\x` and octal escapes are bytes,
   * the others code points.
   */
  private escape(token: Token, index: number, quote: string): { value: number; isByte: boolean; next: number } {
    const text = token.text;
    const char = text[index + 1] as string;
    const simple = char === quote ? char.charCodeAt(0) : SIMPLE_ESCAPES.get(char);
    if (simple !== undefined) return { value: simple, isByte: false, next: index + 2 };
    const form = NUMERIC_ESCAPES.get(char) ?? (char >= '0' && char <= '7' ? OCTAL_ESCAPE : undefined);
    const sequence = text.slice(index, index + (form?.length ?? 2));
    if (!form || !form.pattern.test(sequence)) return this.fail(token.pos + index, `invalid escape sequence ${quoteGo(sequence)}`);
    const value = parseInt(sequence.slice(form.digitsFrom), form.radix);
    if (form.isByte ? value > 0xff : value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) {
      this.fail(token.pos + index, `escape sequence ${quoteGo(sequence)} is not a valid character`);
    }
    return { value, isByte: form.isByte, next: index + form.length };
  }

  /** A double-quoted string with Go's escapes; byte escapes are assembled as UTF-8, as Go strings are bytes. */
  private quotedString(token: Token): string {
    const text = token.text;
    const bytes: number[] = [];
    for (let index = 1; index < text.length - 1; ) {
      if (text[index] === '\\') {
        const { value, isByte, next } = this.escape(token, index, '"');
        if (isByte) bytes.push(value);
        else bytes.push(...encoder.encode(String.fromCodePoint(value)));
        index = next;
      } else {
        const char = String.fromCodePoint(text.codePointAt(index) as number);
        bytes.push(...encoder.encode(char));
        index += char.length;
      }
    }
    return decoder.decode(new Uint8Array(bytes));
  }

  /** `'a'`, `'\n'`, `'\x41'`: the character's code, a number, as in Go. */
  private characterConstant(token: Token): number {
    const text = token.text;
    let value: number;
    let next: number;
    if (text[1] === '\\') ({ value, next } = this.escape(token, 1, "'"));
    else {
      value = text.codePointAt(1) ?? 0;
      next = 1 + String.fromCodePoint(value).length;
    }
    if (text.length < 3 || next !== text.length - 1) this.fail(token.pos, `malformed character constant: ${text}`);
    return value;
  }
}
