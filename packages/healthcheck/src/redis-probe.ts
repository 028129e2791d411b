import { Redis } from 'ioredis';
import { injectable } from 'tsyringe';
import { injectRef } from '@vigie/kernel';
import { type HealthResult } from '@vigie/observability';
import { healthcheckConfig, type HealthcheckConfig } from './config.js';
import { Deadline, reasonOf } from './deadline.js';

/** What the ECHO round trip sends and expects back. */
const echoToken = 'vigie healthcheck';

/** The cache check: a fresh connection to `redis_url` and an ECHO that must come back unchanged. */
@injectable()
export class RedisProbe {
  constructor(@injectRef(healthcheckConfig.ref) private readonly config: HealthcheckConfig) {}

  async check(): Promise<HealthResult> {
    const deadline = new Deadline(this.config.check_timeout_ms);
    // No retries and no offline queue: a check reports the state it finds instead of waiting for a better one.
    const client = new Redis(this.config.redis_url, {
      lazyConnect: true,
      connectTimeout: 2 * deadline.budgetMs,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      enableOfflineQueue: false,
    });
    // connect() only rejects with "Connection is closed."; the cause (refused, wrong password) comes as an event.
    let cause: string | undefined;
    client.on('error', (err: Error) => {
      cause = err.message;
    });
    try {
      try {
        await deadline.bound(client.connect());
      } catch (err) {
        return { ok: false, message: `Failed to connect to Redis: ${cause ?? reasonOf(err)}` };
      }
      let answer: string;
      try {
        answer = await deadline.bound(client.echo(echoToken));
      } catch (err) {
        return { ok: false, message: `Redis ECHO failed: ${reasonOf(err)}` };
      }
      if (answer !== echoToken) return { ok: false, message: `Redis ECHO returned ${JSON.stringify(answer)} instead of ${JSON.stringify(echoToken)}` };
      return { ok: true, message: '' };
    } finally {
      client.disconnect();
    }
  }
}
