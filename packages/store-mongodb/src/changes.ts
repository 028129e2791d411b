import { setTimeout as sleep } from 'node:timers/promises';
import type { ChangeStream, Db, Document } from 'mongodb';
import type { StoreChanges } from '@vigie/kernel';

/** A change event cut down to what listeners need; its `_id` (the resume token) stays, as the server requires. */
interface ChangeEvent {
  operationType: string;
  /** Absent for database-wide events (`dropDatabase`, `invalidate`). */
  ns?: { coll?: string };
}

const pipeline: Document[] = [{ $project: { 'ns.coll': 1, operationType: 1 } }];

/** Pause before a stream that ended is opened again, so a server refusing it is not asked in a tight loop. */
const reopenDelayMs = 1000;

/**
 * Committed writes to the store's database, from every client, read from one database-level change stream (replica
 * sets and sharded clusters only). The driver resumes the stream itself after a network error or an election; when
 * it cannot (or the stream is invalidated), the stream is opened again after a pause and every listener is told that
 * anything may have changed (an empty name), since events of the meantime may be gone.
 */
export class MongoChanges implements StoreChanges {
  readonly #db: Db;
  readonly #listeners = new Set<(collection: string) => void>();
  readonly #closing = new AbortController();
  #stream: ChangeStream<Document, ChangeEvent>;

  /** Opens the change stream, or says why the server gives none (a standalone server, a test server lacking it). */
  static async open(db: Db): Promise<MongoChanges | { unavailable: string }> {
    const stream = db.watch<Document, ChangeEvent>(pipeline);
    try {
      // The stream's aggregate is sent here: the server accepts it or refuses it now, not at the first change.
      const first = await stream.tryNext();
      return new MongoChanges(db, stream, first);
    } catch (err) {
      await stream.close().catch(() => undefined);
      return { unavailable: (err as Error).message };
    }
  }

  private constructor(db: Db, stream: ChangeStream<Document, ChangeEvent>, first: ChangeEvent | null) {
    this.#db = db;
    this.#stream = stream;
    void this.#watch(stream, first);
  }

  subscribe(listener: (collection: string) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async close(): Promise<void> {
    if (this.#closing.signal.aborted) return;
    this.#closing.abort();
    this.#listeners.clear();
    // The watch loop, seeing the stream end, stops there; it is not awaited, so a pending read cannot hold the close.
    await this.#stream.close().catch(() => undefined);
  }

  #tell(collection: string): void {
    for (const listener of this.#listeners) listener(collection);
  }

  async #watch(stream: ChangeStream<Document, ChangeEvent>, first: ChangeEvent | null): Promise<void> {
    let change = first;
    for (;;) {
      try {
        if (change) this.#tell(change.ns?.coll ?? '');
        for await (const next of stream) this.#tell(next.ns?.coll ?? '');
      } catch {
        // An error the driver could not resume from, an invalidated stream, or close(): opened again below unless closed.
      }
      const reopened = await this.#reopen();
      if (!reopened) return;
      ({ stream, first: change } = reopened);
      this.#tell('');
    }
  }

  /** A new stream, opened after a pause and tried again until the server accepts it; undefined once closed. */
  async #reopen(): Promise<{ stream: ChangeStream<Document, ChangeEvent>; first: ChangeEvent | null } | undefined> {
    while (!this.#closing.signal.aborted) {
      let stream: ChangeStream<Document, ChangeEvent> | undefined;
      try {
        await sleep(reopenDelayMs, undefined, { signal: this.#closing.signal });
        stream = this.#db.watch<Document, ChangeEvent>(pipeline);
        this.#stream = stream;
        return { stream, first: await stream.tryNext() };
      } catch {
        // The server is still unreachable or refuses the stream (tried again after the pause), or the store closed.
        await stream?.close().catch(() => undefined);
      }
    }
    return undefined;
  }
}
