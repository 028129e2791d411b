import { number, object, string, type InferType } from 'yup';
import { featureConfig } from '@vigie/kernel';
import { durationSetting } from '@vigie/input';

/** AMQP short strings (exchange and queue names) hold at most 255 bytes. */
const maxNameBytes = 255;

const amqpName = (key: string, fallback: string) =>
  string()
    .default(fallback)
    .test(key, `${key} must be 1 to ${maxNameBytes - 10} bytes long`, (value) => value !== undefined && value !== '' && Buffer.byteLength(value) <= maxNameBytes - 10);

/** `0-3,6` ⇒ [0, 1, 2, 3, 6]; empty ⇒ null (every partition). */
export function partitionList(text: string, partitions: number): number[] | null {
  if (text.trim() === '') return null;
  const chosen = new Set<number>();
  for (const part of text.split(',')) {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    if (!m) throw new Error(`"${part}" is not a partition number or range`);
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (to < from || to >= partitions) throw new Error(`"${part}" is outside partitions 0 to ${partitions - 1}`);
    for (let k = from; k <= to; k++) chosen.add(k);
  }
  return [...chosen].sort((a, b) => a - b);
}

/** `[amqp]` of `etc/webserver.conf`: event ingestion from RabbitMQ (off while `url` is empty). */
export const amqpConfigSchema = object({
  /** `amqp://user:password@host:5672/vhost`; empty: no AMQP ingestion. */
  url: string()
    .default('')
    .test('url', 'url must be empty or start with amqp:// or amqps://', (value) => value === undefined || value === '' || /^amqps?:\/\//.test(value)),
  /** The topic exchange connectors publish to; declared (durable) when absent. */
  exchange: amqpName('exchange', 'canopsis.events'),
  /** Prefix of Vigie's queues: `<prefix>.intake`, `<prefix>.p<k>`, `<prefix>.dead`. */
  queue_prefix: amqpName('queue_prefix', 'vigie.events'),
  /** Partition queues; the events of one entity always go through the same one. Keep it equal on every node. */
  partitions: number().integer().min(1).max(1024).default(16),
  /** Unacknowledged messages a consumer may hold (the original's engines used 10000). */
  prefetch: number().integer().min(1).max(65535).default(1000),
  /**
   * Partitions this node consumes first (`0-7,12`); it stands by for the others, and its intake consumer routes events
   * to the partitions. Empty: every partition at once, and the intake consumer queues events itself (no partition hop).
   */
  preferred_partitions: string().default(''),
  /** How long a node waits before standing by for the partitions it does not prefer. */
  standby_delay: durationSetting('standby_delay', '5s'),
}).test('preferred_partitions', function check(config) {
  try {
    partitionList(config.preferred_partitions, config.partitions);
    return true;
  } catch (err) {
    return this.createError({ path: 'preferred_partitions', message: `preferred_partitions: ${(err as Error).message}` });
  }
});

export type AmqpConfig = InferType<typeof amqpConfigSchema>;

/** The feature's configuration: schema, where it is read, and the typed reference its classes inject. */
export const amqpConfig = featureConfig(amqpConfigSchema, { section: 'amqp' });
