import { defineFeature } from '@vigie/kernel';
import { AmqpProbe } from './amqp-probe.js';
import { healthcheckConfig, listOf, type HealthcheckConfig } from './config.js';
import { DatabaseProbe } from './database-probe.js';
import { healthcheckBridge } from './di.js';
import { beatCollection, beatEverySeconds, EngineBeat } from './engine-beat.js';
import { RedisProbe } from './redis-probe.js';
import { healthcheckRoutes } from './routes.js';

/** Names of the checks this feature contributes; the part before the dot is the summary key they count toward. */
export const healthcheckNames = {
  database: 'database.store',
  amqp: 'amqp.broker',
  cache: 'cache.redis',
  engines: 'engines.scheduler',
} as const;

/**
 * The healthcheck: `GET /api/v2/healthcheck/` summarises every check in the kernel's health registry. This
 * feature contributes the database, broker (when `amqp_url` is set), cache (when `redis_url` is set) and
 * scheduler checks; other features contribute theirs through `f.healthCheck`.
 */
export const healthcheckFeature = defineFeature<HealthcheckConfig>({
  id: 'healthcheck',
  kernel: '^0.1.0',
  config: healthcheckConfig,
  register(f) {
    f.use(healthcheckBridge);
    f.collection(beatCollection);
    for (const route of healthcheckRoutes) f.route(route);
    // Each check stays within check_timeout_ms by itself; the registry's bound, a little later, is the backstop.
    const timeoutMs = f.config.check_timeout_ms + 1000;

    f.healthCheck({ name: healthcheckNames.database, timeoutMs, check: (c) => c.resolve(DatabaseProbe).check() });
    f.healthCheck({ name: healthcheckNames.engines, timeoutMs, check: (c) => c.resolve(EngineBeat).check() });
    // An unconfigured service has no check, so its key reads "": nothing to check is no error.
    if (f.config.amqp_url !== '') {
      f.healthCheck({ name: healthcheckNames.amqp, timeoutMs, check: (c) => c.resolve(AmqpProbe).check() });
    }
    if (f.config.redis_url !== '') {
      f.healthCheck({ name: healthcheckNames.cache, timeoutMs, check: (c) => c.resolve(RedisProbe).check() });
    }

    f.job({
      name: 'healthcheck.engine-beat',
      every: `${beatEverySeconds} seconds`,
      handler: (run) => run.scope.resolve(EngineBeat).beat(),
    });
    f.onStart((c) => c.resolve(EngineBeat).markStarted());

    const ignoredEngines = listOf(f.config.check_engines);
    if (ignoredEngines.length > 0) {
      f.onInit(() => {
        f.logger.warn(
          { check_engines: ignoredEngines },
          'check_engines names systemd engines, which Vigie does not have: they are ignored; engines reports the scheduler instead',
        );
      });
    }
  },
});
