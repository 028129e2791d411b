export { koaHttpServer, type KoaHttpServerOptions } from './server.js';
export { tooManyLogins } from './app.js';
export { wordError } from './error-wording.js';
export { parseByteSize } from './body.js';
export { JsonDepthMeter, FormJsonDepthMeter, assertJsonDepth } from './json-depth.js';
export type { ResponseMismatch } from './response-check.js';
export { auditChangeLimit } from './audit-changes.js';
