import { object, type InferType } from 'yup';
import { defineFeature, featureConfig, kernelRefs } from '@vigie/kernel';
import { durationSeconds, durationSetting } from '@vigie/input';
import { auditBridge } from './di.js';
import { AuditLog } from './audit-log.js';
import { auditCollection, AuditRepository } from './audit-repository.js';
import { auditRoutes } from './routes.js';

/** `[audit]` of `etc/webserver.conf`. */
export const auditConfigSchema = object({
  /** How long records are kept. */
  retention: durationSetting('retention', '90d'),
});

export type AuditConfig = InferType<typeof auditConfigSchema>;

export const auditConfig = featureConfig(auditConfigSchema);

/**
 * The audit log: the kernel hands every change asked through the API (every non-GET route that is not public) to
 * this feature's trail before the handler runs; `GET /api/v2/audit` reads it; an hourly job drops records older
 * than `[audit] retention`.
 */
export const auditFeature = defineFeature<AuditConfig>({
  id: 'audit',
  kernel: '^0.1.0',
  config: auditConfig,
  register(f) {
    f.use(auditBridge);
    f.collection(auditCollection, { indexes: [{ keys: { at: -1 } }] });
    f.auditTrail((c) => c.resolve(AuditLog));
    for (const route of auditRoutes) f.route(route);
    f.job({
      name: 'audit.purge',
      every: '1 hour',
      handler: async (run) => {
        const cutoff = run.scope.resolve(kernelRefs.clock).nowMs() - (durationSeconds(f.config.retention) ?? 0) * 1000;
        await run.scope.resolve(AuditRepository).purgeBefore(cutoff);
      },
    });
  },
});
