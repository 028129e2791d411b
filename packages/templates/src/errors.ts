/**
 * Errors carry a `code` string so callers can recognise them without `instanceof` (two copies of this package in
 * one install would otherwise make an error look foreign), like the kernel's errors.
 */

export const TemplateErrorCodes = {
  /** The source is not a valid template; raised by `compile`, returned by `parseTemplate`. */
  Parse: 'TEMPLATE_PARSE',
  /** Rendering failed: a function refused its arguments, a value has the wrong type, or a safety bound was hit. */
  Exec: 'TEMPLATE_EXEC',
} as const;

/** A position in the template source; `line` and `column` are 1-based, columns count UTF-16 code units. */
export interface SourcePosition {
  readonly line: number;
  readonly column: number;
}

abstract class TemplateError extends Error {
  abstract readonly code: string;
  readonly line: number;
  readonly column: number;
  /** The message without the `template: line:column:` prefix, e.g. `unexpected "}" in operand`. */
  readonly detail: string;

  constructor(message: string, position: SourcePosition, detail: string, cause: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.line = position.line;
    this.column = position.column;
    this.detail = detail;
  }
}

/** `template: 1:14: unexpected "}" in operand` */
export class TemplateParseError extends TemplateError {
  readonly code = TemplateErrorCodes.Parse;

  constructor(position: SourcePosition, detail: string) {
    super(`template: ${position.line}:${position.column}: ${detail}`, position, detail, undefined);
    this.name = 'TemplateParseError';
  }
}

/** `template: 1:3: executing at <index .List 5>: error calling index: index out of range: 5` */
export class TemplateExecError extends TemplateError {
  readonly code = TemplateErrorCodes.Exec;
  /** The source text of the failing command, shortened to 20 characters like Go does. */
  readonly context: string;

  constructor(position: SourcePosition, context: string, detail: string, cause?: unknown) {
    super(`template: ${position.line}:${position.column}: executing at <${context}>: ${detail}`, position, detail, cause);
    this.name = 'TemplateExecError';
    this.context = context;
  }
}

/** Maps source offsets to 1-based line/column pairs. */
export class SourceMap {
  private readonly lineStarts: number[] = [0];

  constructor(source: string) {
    for (let i = 0; i < source.length; i++) if (source.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
  }

  position(offset: number): SourcePosition {
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((this.lineStarts[mid] as number) <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: offset - (this.lineStarts[low] as number) + 1 };
  }
}
