export { compile, parseTemplate, defaultTemplateLimits, type CompileOptions, type ParseResult, type Template, type TemplateLimits } from './template.js';
export { TemplateErrorCodes, TemplateExecError, TemplateParseError, type SourcePosition } from './errors.js';
export type { TemplateFunction } from './functions.js';
