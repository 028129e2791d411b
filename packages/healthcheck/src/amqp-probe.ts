import { connect, type ChannelModel, type ConfirmChannel } from 'amqplib';
import { injectable } from 'tsyringe';
import { injectRef } from '@vigie/kernel';
import { type HealthResult } from '@vigie/observability';
import { healthcheckConfig, listOf, type HealthcheckConfig } from './config.js';
import { Deadline, reasonOf } from './deadline.js';

/**
 * Routing key of the test message, published to the default exchange: no queue has this name, so the broker
 * confirms and drops the message and no consumer ever sees it.
 */
export const probeRoutingKey = 'vigie.healthcheck.probe';

/** AMQP's reply code for a missing queue or exchange, which the broker sends as it closes the channel. */
const notFound = 404;

// Errors also arrive as the rejection of the operation that caused them; these listeners only keep amqplib
// from throwing them a second time as unhandled 'error' events.
const ignore = (): void => undefined;

/** Ends the check with a message saying what failed. */
class CheckFailure extends Error {}

const passiveFailure = (kind: 'exchange' | 'queue', name: string) => (err: unknown) =>
  (err as { code?: unknown }).code === notFound ? `Missing ${kind} ${name}` : `Failed to check ${kind} ${name}: ${reasonOf(err)}`;

/**
 * The broker check, over AMQP alone (no management API): connect and open a channel, publish a confirmed test
 * message, then the configured exchange must exist and each monitored queue must exist, have a consumer and hold
 * at most `check_amqp_limit_size` ready messages. Stops at the first failure, like the original.
 */
@injectable()
export class AmqpProbe {
  constructor(@injectRef(healthcheckConfig.ref) private readonly config: HealthcheckConfig) {}

  async check(): Promise<HealthResult> {
    const deadline = new Deadline(this.config.check_timeout_ms);
    // amqplib's own socket timeout is only a backstop: the deadline words the failure.
    const opening = connect(this.config.amqp_url, { timeout: 2 * deadline.budgetMs });
    let connection: ChannelModel;
    try {
      connection = await deadline.bound(opening);
    } catch (err) {
      opening.then((late) => late.close()).catch(ignore);
      return { ok: false, message: `Failed to connect: ${reasonOf(err)}` };
    }
    connection.on('error', ignore);
    try {
      await this.#inspect(connection, deadline);
      return { ok: true, message: '' };
    } catch (err) {
      if (err instanceof CheckFailure) return { ok: false, message: err.message };
      throw err;
    } finally {
      await connection.close().catch(ignore);
    }
  }

  async #inspect(connection: ChannelModel, deadline: Deadline): Promise<void> {
    const step = <T>(work: Promise<T>, wording: (err: unknown) => string): Promise<T> =>
      deadline.bound(work).catch((err: unknown) => {
        throw new CheckFailure(wording(err));
      });
    const channel = await step(connection.createConfirmChannel(), (err) => `Failed to connect: ${reasonOf(err)}`);
    channel.on('error', ignore);
    await step(publishProbe(channel), (err) => `Failed to publish: ${reasonOf(err)}`);
    // A missing exchange or queue closes the channel, but that ends the check anyway: one channel serves them all.
    const exchange = this.config.amqp_exchange;
    if (exchange !== '') await step(channel.checkExchange(exchange), passiveFailure('exchange', exchange));
    for (const queue of listOf(this.config.check_amqp_queues)) {
      const state = await step(channel.checkQueue(queue), passiveFailure('queue', queue));
      if (state.consumerCount === 0) throw new CheckFailure(`No consumer for queue ${queue}`);
      if (state.messageCount > this.config.check_amqp_limit_size) {
        throw new CheckFailure(`Queue ${queue} is overloaded (${state.messageCount} ready messages)`);
      }
    }
  }
}

/** Publishes the test message and waits for the broker's confirmation. */
function publishProbe(channel: ConfirmChannel): Promise<void> {
  return new Promise((resolve, reject) => {
    channel.publish('', probeRoutingKey, Buffer.from('{"vigie":"healthcheck"}'), { contentType: 'application/json' }, (err: unknown) => {
      if (err) reject(new Error('the broker refused the test message'));
      else resolve();
    });
  });
}
