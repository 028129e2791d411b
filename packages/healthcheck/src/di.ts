import { defineBridge } from '@vigie/kernel';
import { AmqpProbe } from './amqp-probe.js';
import { DatabaseProbe } from './database-probe.js';
import { EngineBeat } from './engine-beat.js';
import { RedisProbe } from './redis-probe.js';
import { HealthSummaryService } from './summary.js';

/** The healthcheck feature's class graph (tsyringe). */
export const healthcheckBridge = defineBridge({
  singletons: [HealthSummaryService, AmqpProbe, RedisProbe, DatabaseProbe, EngineBeat],
});
