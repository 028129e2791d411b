// Helpers feature packages build on, outside the kernel because the kernel itself does not use them: a typed
// repository over a feature's collection, the compiled-rule cache of the rule engines, bulk routes answering 207 per
// item, the sealed box for secrets stored in documents, per-key serial queues and literal regex escaping.
export { DocumentRepository, documentRepositoryClass } from './document-repository.js';
export { RuleCache, type RuleCacheOptions, type RuleSource } from './rule-cache.js';
export {
  bulkBody,
  bulkResultSchema,
  requireBulkItemId,
  defineBulkRoute,
  maxBulkItems,
  runBulk,
  type BulkItemOutcome,
  type BulkItemResult,
  type BulkOptions,
  type BulkRouteSpec,
} from './bulk.js';
export { SecretBox, decodeSecretKey, type SecretBoxOptions } from './secret-box.js';
export { SerialQueues } from './serial-queues.js';
export { escapeRegExp } from './text.js';
