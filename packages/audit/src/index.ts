export { auditFeature, auditConfigSchema, type AuditConfig } from './feature.js';
export { auditCollection, type AuditRecord } from './audit-repository.js';
