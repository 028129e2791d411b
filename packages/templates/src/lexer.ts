import { type SourceMap, TemplateParseError } from './errors.js';
import { describeRune, quoteGo } from './format.js';

export type TokenKind =
  | 'text'
  | 'leftDelim'
  | 'rightDelim'
  | 'space'
  | 'field'
  | 'variable'
  | 'identifier'
  | 'keyword'
  | 'dot'
  | 'string'
  | 'rawString'
  | 'charConstant'
  | 'number'
  | 'bool'
  | 'nil'
  | 'pipe'
  | 'declare'
  | 'assign'
  | 'leftParen'
  | 'rightParen'
  | 'char'
  | 'eof';

/** `pos` and `end` delimit the token in the source; `text` is the source slice. */
export interface Token {
  readonly kind: TokenKind;
  readonly text: string;
  readonly pos: number;
  readonly end: number;
}

const KEYWORDS = new Set(['if', 'else', 'end', 'range', 'with', 'break', 'continue', 'define', 'template', 'block']);
const RADIX_DIGITS = new Map([
  ['0x', /[0-9a-f_]/i],
  ['0o', /[0-7_]/],
  ['0b', /[01_]/],
]);
const TERMINATORS = new Set(['.', ',', '|', ':', ')', '(']);

const isSpace = (ch: string | undefined): boolean => ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
const isDigit = (ch: string | undefined): boolean => ch !== undefined && ch >= '0' && ch <= '9';
const ALPHANUMERIC = /^[\p{L}\p{Nd}_]$/u;
const LETTER = /^[\p{L}_]$/u;

/** Describes a token the way Go's parser does in "unexpected ..." messages. */
export function describeToken(token: Token): string {
  if (token.kind === 'eof') return 'EOF';
  if (token.kind === 'keyword') return `<${token.text}>`;
  const chars = Array.from(token.text);
  return chars.length > 10 ? `${quoteGo(chars.slice(0, 10).join(''))}...` : quoteGo(token.text);
}

/**
 * Splits a template into tokens, lazily: like Go's lexer it runs ahead of the parser only as far as needed, so a
 * template's first error is the one reported. Trim markers (`{{- ` and ` -}}`) are applied here, to the
 * neighbouring text, and comments are dropped, so the parser never sees either. The last token is `eof`.
 */
export function* tokenize(source: string, sourceMap: SourceMap): Generator<Token, void> {
  const fail = (pos: number, message: string): never => {
    throw new TemplateParseError(sourceMap.position(pos), message);
  };
  let pos = 0;
  let trimLeadingSpace = false;

  const charAt = (i: number): string => String.fromCodePoint(source.codePointAt(i) ?? 0);
  const atRightDelim = (i: number): boolean => source.startsWith('}}', i) || (isSpace(source[i]) && source.startsWith('-}}', i + 1));
  const atTerminator = (i: number): boolean => i >= source.length || isSpace(source[i]) || TERMINATORS.has(source[i] as string) || atRightDelim(i);
  const scanAlphanumeric = (i: number): number => {
    while (i < source.length && ALPHANUMERIC.test(charAt(i))) i += charAt(i).length;
    return i;
  };
  const expectTerminator = (i: number): void => {
    if (!atTerminator(i)) fail(i, `bad character ${describeRune(charAt(i))}`);
  };
  const scanQuoted = (start: number, quote: string, what: string): number => {
    let i = start + 1;
    for (;;) {
      const ch = source[i];
      // Neither a string nor an escape sequence may run past the end of the line.
      const escaped = ch === '\\' ? source[i + 1] : ch;
      if (escaped === undefined || escaped === '\n') return fail(start, `unterminated ${what}`);
      if (ch === quote) return i + 1;
      i += ch === '\\' ? 2 : 1;
    }
  };
  const scanNumber = (start: number): number => {
    let i = start;
    if (source[i] === '+' || source[i] === '-') i += 1;
    const radixDigits = RADIX_DIGITS.get(source.slice(i, i + 2).toLowerCase());
    if (radixDigits) {
      i += 2;
      while (i < source.length && radixDigits.test(source[i] as string)) i += 1;
    } else {
      while (isDigit(source[i]) || source[i] === '_') i += 1;
      if (source[i] === '.') {
        i += 1;
        while (isDigit(source[i]) || source[i] === '_') i += 1;
      }
      if (source[i] === 'e' || source[i] === 'E') {
        i += 1;
        if (source[i] === '+' || source[i] === '-') i += 1;
        while (isDigit(source[i])) i += 1;
      }
    }
    if (i < source.length && ALPHANUMERIC.test(charAt(i))) fail(start, `bad number syntax: ${quoteGo(source.slice(start, i + 1))}`);
    return i;
  };

  let parenDepth = 0;
  /** The kind and end of the token at `pos`, inside an action and before its closing delimiter. */
  const actionToken = (open: number): [TokenKind, number] => {
    const ch = source[pos];
    if (ch === undefined) return fail(open, 'unclosed action');
    if (isSpace(ch)) {
      let end = pos;
      while (isSpace(source[end]) && !atRightDelim(end)) end += 1;
      return ['space', end];
    }
    if (ch === '=') return ['assign', pos + 1];
    if (ch === ':') return source[pos + 1] === '=' ? ['declare', pos + 2] : fail(pos, 'expected :=');
    if (ch === '|') return ['pipe', pos + 1];
    if (ch === '"') return ['string', scanQuoted(pos, '"', 'quoted string')];
    if (ch === "'") return ['charConstant', scanQuoted(pos, "'", 'character constant')];
    if (ch === '`') {
      const close = source.indexOf('`', pos + 1);
      return close === -1 ? fail(pos, 'unterminated raw quoted string') : ['rawString', close + 1];
    }
    if (ch === '$') {
      const end = scanAlphanumeric(pos + 1);
      expectTerminator(end);
      return ['variable', end];
    }
    if ((ch === '.' && isDigit(source[pos + 1])) || ch === '+' || ch === '-' || isDigit(ch)) return ['number', scanNumber(pos)];
    if (ch === '.') {
      const end = scanAlphanumeric(pos + 1);
      expectTerminator(end);
      return [end === pos + 1 ? 'dot' : 'field', end];
    }
    if (LETTER.test(charAt(pos))) {
      const end = scanAlphanumeric(pos);
      expectTerminator(end);
      const word = source.slice(pos, end);
      return [KEYWORDS.has(word) ? 'keyword' : word === 'true' || word === 'false' ? 'bool' : word === 'nil' ? 'nil' : 'identifier', end];
    }
    if (ch === '(') {
      parenDepth += 1;
      return ['leftParen', pos + 1];
    }
    if (ch === ')') {
      if (parenDepth === 0) fail(pos, 'unexpected right paren');
      parenDepth -= 1;
      return ['rightParen', pos + 1];
    }
    if (ch >= '!' && ch <= '~') return ['char', pos + 1];
    return fail(pos, `unrecognized character in action: ${describeRune(charAt(pos))}`);
  };
  const token = (kind: TokenKind, start: number, end: number): Token => ({ kind, text: source.slice(start, end), pos: start, end });

  for (;;) {
    const open = source.indexOf('{{', pos);
    const trimLeft = open !== -1 && source[open + 2] === '-' && isSpace(source[open + 3]);
    let textStart = pos;
    let textEnd = open === -1 ? source.length : open;
    if (trimLeadingSpace) while (textStart < textEnd && isSpace(source[textStart])) textStart += 1;
    if (trimLeft) while (textEnd > textStart && isSpace(source[textEnd - 1])) textEnd -= 1;
    if (textEnd > textStart) yield token('text', textStart, textEnd);
    if (open === -1) break;

    pos = open + (trimLeft ? 4 : 2);
    if (source.startsWith('/*', pos)) {
      const close = source.indexOf('*/', pos + 2);
      if (close === -1) fail(open, 'unclosed comment');
      pos = close + 2;
      if (source.startsWith('}}', pos)) {
        trimLeadingSpace = false;
        pos += 2;
      } else if (isSpace(source[pos]) && source.startsWith('-}}', pos + 1)) {
        trimLeadingSpace = true;
        pos += 4;
      } else {
        fail(pos, 'comment ends before closing delimiter');
      }
      continue;
    }

    yield token('leftDelim', open, pos);
    parenDepth = 0;
    while (!atRightDelim(pos)) {
      const [kind, end] = actionToken(open);
      yield token(kind, pos, end);
      pos = end;
    }
    if (parenDepth > 0) fail(pos, 'unclosed left paren');
    trimLeadingSpace = !source.startsWith('}}', pos);
    const end = pos + (trimLeadingSpace ? 4 : 2);
    yield token('rightDelim', pos, end);
    pos = end;
  }
  yield token('eof', source.length, source.length);
}
