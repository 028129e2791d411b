import { number, object, string, type InferType } from 'yup';
import { featureConfig } from '@vigie/kernel';

/** Names the stores accept for collections (the SQLite and MongoDB adapters share this rule). */
const collectionNamePattern = /^[A-Za-z0-9_.-]{1,120}$/;

/** AMQP short strings (queue and exchange names) hold at most 255 bytes. */
const maxAmqpNameBytes = 255;

/** `a,b, c,,` ⇒ `['a', 'b', 'c']`: the spec writes these lists without spaces; stray spaces are forgiven. */
export function listOf(text: string): string[] {
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

const urlWithScheme = (key: string, schemes: readonly string[]) =>
  string()
    .default('')
    .test(key, `${key} must be empty or a URL starting with ${schemes.map((s) => `${s}://`).join(' or ')}`, (value) => {
      if (value === undefined || value === '') return true;
      return schemes.some((scheme) => value.startsWith(`${scheme}://`));
    });

/** `[HEALTHCHECK]` of `etc/healthcheck/manager.conf`: the spec's keys, then what Vigie needs to reach the services. */
export const healthcheckConfigSchema = object({
  /** A monitored queue holding more ready messages than this is overloaded. */
  check_amqp_limit_size: number().integer().min(0).default(100000),
  /** Comma-separated queues that must exist, have a consumer and not be overloaded. */
  check_amqp_queues: string()
    .default('')
    .test('check_amqp_queues', `check_amqp_queues names a queue longer than ${maxAmqpNameBytes} bytes`, (value) =>
      listOf(value ?? '').every((queue) => Buffer.byteLength(queue) <= maxAmqpNameBytes),
    ),
  /** Comma-separated collections that must be readable. Collections that do not exist yet read as empty: not an error. */
  check_collections: string()
    .default('default_entities,periodical_alarm')
    .test('check_collections', 'check_collections names an invalid collection (letters, digits, _ . - only, at most 120)', (value) =>
      listOf(value ?? '').every((name) => collectionNamePattern.test(name) && !name.startsWith('system.')),
    ),
  /** The original's systemd engines. Vigie runs its engines in-process: listed names are ignored (a warning says so). */
  check_engines: string().default(''),
  /** The original's statistics database name; unused until Vigie has a time-series store. */
  check_ts_db: string().default(''),
  /** The original's web server unit; unused (Vigie answering this request is the web server's check). */
  check_webserver: string().default(''),
  /** The original's systemd unit prefix; unused (no systemd engines). */
  systemctl_engine_prefix: string().default(''),
  /** The broker to check; empty: no AMQP check, `amqp` stays "". */
  amqp_url: urlWithScheme('amqp_url', ['amqp', 'amqps']),
  /** An exchange that must exist on the broker (e.g. `canopsis.events`); empty: not checked. */
  amqp_exchange: string()
    .default('')
    .test('amqp_exchange', `amqp_exchange is longer than ${maxAmqpNameBytes} bytes`, (value) => Buffer.byteLength(value ?? '') <= maxAmqpNameBytes),
  /** The Redis cache to check; empty: no cache check, `cache` stays "". */
  redis_url: urlWithScheme('redis_url', ['redis', 'rediss']),
  /** Upper bound of each check against a service; a service that does not answer in time is reported as failed. */
  check_timeout_ms: number().integer().min(100).max(60000).default(5000),
});

export type HealthcheckConfig = InferType<typeof healthcheckConfigSchema>;

/** The feature's configuration: schema, where it is read, and the typed reference its classes inject. */
export const healthcheckConfig = featureConfig(healthcheckConfigSchema, { file: 'healthcheck/manager.conf', section: 'HEALTHCHECK' });
