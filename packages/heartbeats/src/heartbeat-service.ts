import { inject, injectable } from 'tsyringe';
import { heartbeatId } from './heartbeat-id.js';
import { HeartbeatRepository, type HeartbeatRecord } from './heartbeat-repository.js';
import type { Heartbeat, HeartbeatInput } from './schemas.js';

function toHeartbeat(record: HeartbeatRecord): Heartbeat {
  // `output` is kept for the engine but not shown: the spec's heartbeat is exactly these three fields.
  return { _id: record._id, pattern: { ...record.pattern }, expected_interval: record.expected_interval };
}

function toRecord(input: HeartbeatInput): HeartbeatRecord {
  return {
    _id: heartbeatId(input.pattern),
    pattern: { ...input.pattern },
    expected_interval: input.expected_interval,
    ...(input.output !== undefined ? { output: input.output } : {}),
  };
}

@injectable()
export class HeartbeatService {
  constructor(@inject(HeartbeatRepository) private readonly heartbeats: HeartbeatRepository) {}

  async list(): Promise<Heartbeat[]> {
    return (await this.heartbeats.list()).map(toHeartbeat);
  }

  async get(id: string): Promise<Heartbeat | null> {
    const record = await this.heartbeats.get(id);
    return record ? toHeartbeat(record) : null;
  }

  /** Returns the new heartbeat's id; a `DUPLICATE_KEY` error when one already watches this pattern. */
  /** The heartbeat an input describes, as it would be stored (the preview's heartbeat). */
  draft(input: HeartbeatInput): HeartbeatRecord {
    return toRecord(input);
  }

  async create(input: HeartbeatInput): Promise<string> {
    const record = toRecord(input);
    await this.heartbeats.insert(record);
    return record._id;
  }

  /** Returns the heartbeat's id after the update (a new pattern gives a new id), or null if `id` is unknown. */
  async update(id: string, input: HeartbeatInput): Promise<string | null> {
    const record = toRecord(input);
    return (await this.heartbeats.replaceAt(id, record))?._id ?? null;
  }

  delete(id: string): Promise<boolean> {
    return this.heartbeats.delete(id);
  }
}
