import { injectable } from 'tsyringe';
import { injectRef, kernelRefs, type StoreProbe } from '@vigie/kernel';
import { type HealthResult } from '@vigie/observability';
import { healthcheckConfig, listOf, type HealthcheckConfig } from './config.js';
import { reasonOf } from './deadline.js';

/**
 * The database check: the store answers a ping, lists its collections, and each monitored collection can be
 * read (a find with limit 1). A collection that does not exist yet reads as empty, which is healthy: a fresh
 * installation has no alarms yet.
 */
@injectable()
export class DatabaseProbe {
  constructor(
    @injectRef(kernelRefs.storeProbe) private readonly store: StoreProbe,
    @injectRef(healthcheckConfig.ref) private readonly config: HealthcheckConfig,
  ) {}

  async check(): Promise<HealthResult> {
    try {
      await this.store.ping();
    } catch (err) {
      return { ok: false, message: `Failed to reach the database: ${reasonOf(err)}` };
    }
    try {
      await this.store.listCollections();
    } catch (err) {
      return { ok: false, message: `Failed to list the database collections: ${reasonOf(err)}` };
    }
    for (const name of listOf(this.config.check_collections)) {
      try {
        await this.store.read(name);
      } catch (err) {
        return { ok: false, message: `Failed to read collection ${name}: ${reasonOf(err)}` };
      }
    }
    return { ok: true, message: '' };
  }
}
