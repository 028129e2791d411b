import { randomUUID } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import { injectRef, kernelRefs, type Clock } from '@vigie/kernel';
import { BroadcastMessageRepository, type BroadcastMessageRecord } from './broadcast-message-repository.js';
import type { BroadcastMessage, BroadcastMessageInput } from './schemas.js';

function toBroadcastMessage(record: BroadcastMessageRecord): BroadcastMessage {
  return { _id: record._id, message: record.message, color: record.color, start: record.start, end: record.end };
}

@injectable()
export class BroadcastMessageService {
  constructor(
    @inject(BroadcastMessageRepository) private readonly messages: BroadcastMessageRepository,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
  ) {}

  async list(): Promise<BroadcastMessage[]> {
    return (await this.messages.list()).map(toBroadcastMessage);
  }

  /** Messages to display now: `start <= now <= end`. */
  async active(): Promise<BroadcastMessage[]> {
    return (await this.messages.shownAt(this.clock.nowSec())).map(toBroadcastMessage);
  }

  async get(id: string): Promise<BroadcastMessage | null> {
    const record = await this.messages.get(id);
    return record ? toBroadcastMessage(record) : null;
  }

  /** Returns the new message's id (clients never choose it). */
  async create(input: BroadcastMessageInput): Promise<string> {
    const record: BroadcastMessageRecord = { _id: randomUUID(), ...input };
    await this.messages.insert(record);
    return record._id;
  }

  /** Replaces message `id`; an unknown id is left alone, as in the original (the answer is the same). */
  async replace(id: string, input: BroadcastMessageInput): Promise<void> {
    await this.messages.replace({ _id: id, ...input });
  }

  /** An unknown id is no error either (the answer is the same). */
  async delete(id: string): Promise<void> {
    await this.messages.delete(id);
  }
}
