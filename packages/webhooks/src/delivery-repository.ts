import { injectable } from 'tsyringe';
import { collectionRef, ErrorCodes, injectRef, kernelRefs, hasCode, type Collection, type Doc, type Filter, type FeatureStore } from '@vigie/kernel';

export const deliveryStatuses = ['pending', 'succeeded', 'failed', 'skipped'] as const;
export type DeliveryStatus = (typeof deliveryStatuses)[number];

/** One HTTP attempt of a delivery. */
export interface DeliveryAttempt {
  /** When it started, epoch seconds. */
  t: number;
  /** The answer's status code; absent when there was no answer (timeout, refused connection, …). */
  status?: number;
  /** Why it failed; absent for a success. */
  error?: string;
  /** How long it took, in milliseconds. */
  duration_ms: number;
}

/** The request as rendered when the trigger fired. Credentials are not in it: they are read and decrypted to send. */
export interface RenderedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

/**
 * A delivery in `webhook_deliveries`: one webhook fired by one trigger of one alarm, from its recording (the outbox
 * entry, written while the trigger is processed) to its outcome. `_id` is the delivery id, sent as `Idempotency-Key`.
 */
export interface DeliveryRecord extends Doc {
  _id: string;
  webhook: string;
  alarm: string;
  /** The alarm's entity id. */
  entity: string;
  trigger: string;
  status: DeliveryStatus;
  request: RenderedRequest;
  /** Whether the webhook declares a ticket from the answer (a ticket claim guards it). */
  declare_ticket: boolean;
  attempts: DeliveryAttempt[];
  /** Attempts allowed in total, replays included: each replay grants 1 + `retry.count` more. */
  max_attempts: number;
  /** Milliseconds between two attempts. */
  retry_delay_ms: number;
  /** Wall-clock epoch ms before which no attempt starts (the retry delay). */
  next_attempt_at: number;
  /** Wall-clock epoch ms until which an attempt in progress owns the delivery (crash recovery waits for it). */
  lease_until: number;
  /** How many times `declareticketwebhook` triggers led to this delivery (the loop guard). */
  depth: number;
  /** The declared ticket, once stored on the alarm. */
  ticket?: string;
  /** Why the delivery failed or was skipped. */
  reason?: string;
  /** Epoch seconds. */
  created: number;
  updated: number;
  /** Epoch seconds at which a finished delivery ended (retention counts from it). */
  finished?: number;
}

/** `webhook_tickets`: at most one per webhook and alarm, claimed (atomically, by id) before the ticket request is sent. */
export interface TicketClaim extends Doc {
  /** `<webhook id>\u0000<alarm id>`. */
  _id: string;
  webhook: string;
  alarm: string;
  /** The delivery that owns the claim: the only one allowed to send the ticket request. */
  delivery: string;
  ticket?: string;
  created: number;
}

export const deliveryCollection = collectionRef<DeliveryRecord>('webhook_deliveries');
export const ticketClaimCollection = collectionRef<TicketClaim>('webhook_tickets');

const claimId = (webhook: string, alarm: string) => `${webhook}\u0000${alarm}`;

@injectable()
export class DeliveryRepository {
  readonly #deliveries: Collection<DeliveryRecord>;
  readonly #claims: Collection<TicketClaim>;

  constructor(@injectRef(kernelRefs.store) store: FeatureStore) {
    this.#deliveries = store.collection(deliveryCollection);
    this.#claims = store.collection(ticketClaimCollection);
  }

  /** Returns the stored delivery (the `DocumentRepository` contract); `DUPLICATE_KEY` when its id is taken. */
  async insert(delivery: DeliveryRecord): Promise<DeliveryRecord> {
    await this.#deliveries.insertOne(delivery);
    return delivery;
  }

  get(id: string): Promise<DeliveryRecord | null> {
    return this.#deliveries.findOne({ _id: id });
  }

  pending(): Promise<DeliveryRecord[]> {
    return this.#deliveries.find({ status: 'pending' });
  }

  async page(filter: Filter, skip: number, limit: number): Promise<{ total: number; data: DeliveryRecord[] }> {
    const [total, data] = await Promise.all([this.#deliveries.count(filter), this.#deliveries.find(filter, { sort: { created: -1, _id: 1 }, skip, limit })]);
    return { total, data };
  }

  /**
   * Takes a pending delivery whose next attempt is due and that no live attempt owns, for `leaseMs`: the attempt's
   * exclusive right to send. Null when it is not due, finished, or owned (another job or node got it first).
   */
  lease(id: string, nowMs: number, leaseMs: number): Promise<DeliveryRecord | null> {
    return this.#deliveries.findOneAndUpdate(
      { _id: id, status: 'pending', next_attempt_at: { $lte: nowMs }, lease_until: { $lte: nowMs } },
      { $set: { lease_until: nowMs + leaseMs } },
      { returnDocument: 'after' },
    );
  }

  /** Records an attempt and what comes next, if the delivery is still the leased, pending one. */
  async recordAttempt(id: string, attempt: DeliveryAttempt, next: Partial<DeliveryRecord>): Promise<void> {
    await this.#deliveries.updateOne({ _id: id, status: 'pending' }, { $push: { attempts: attempt }, $set: next });
  }

  async update(id: string, fields: Partial<DeliveryRecord>, expectedStatus?: DeliveryStatus): Promise<boolean> {
    const filter = expectedStatus === undefined ? { _id: id } : { _id: id, status: expectedStatus };
    return (await this.#deliveries.updateOne(filter, { $set: fields })).matchedCount === 1;
  }

  async deleteFinishedUntil(cutoff: number): Promise<number> {
    return (await this.#deliveries.deleteMany({ status: { $ne: 'pending' }, finished: { $lte: cutoff } })).deletedCount;
  }

  claimOf(webhook: string, alarm: string): Promise<TicketClaim | null> {
    return this.#claims.findOne({ _id: claimId(webhook, alarm) });
  }

  /**
   * The claim of the ticket of (webhook, alarm) for `delivery`: inserted when there is none (the id makes it
   * atomic), else the existing one, possibly owned by another delivery.
   */
  async claim(webhook: string, alarm: string, delivery: string, nowSec: number): Promise<TicketClaim> {
    const claim: TicketClaim = { _id: claimId(webhook, alarm), webhook, alarm, delivery, created: nowSec };
    try {
      await this.#claims.insertOne(claim);
      return claim;
    } catch (err) {
      if (!hasCode(err, ErrorCodes.DuplicateKey)) throw err;
      const existing = await this.claimOf(webhook, alarm);
      if (!existing) throw err;
      return existing;
    }
  }

  async recordTicket(webhook: string, alarm: string, ticket: string): Promise<void> {
    await this.#claims.updateOne({ _id: claimId(webhook, alarm) }, { $set: { ticket } });
  }
}
