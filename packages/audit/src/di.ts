import { defineBridge } from '@vigie/kernel';
import { AuditLog } from './audit-log.js';
import { AuditRepository } from './audit-repository.js';

/** The audit feature's class graph. */
export const auditBridge = defineBridge({
  singletons: [AuditRepository, AuditLog],
});
