import { createRequire } from 'node:module';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { DocChange, EnginePersistence, ResolvedIndexSpec } from '@vigie/documents';

/**
 * Documents of a commit written into one buffer: `ids[i]` is in `collections[spans[3i]]`, its JSON text (UTF-8) is
 * `chunk` from `spans[3i + 1]` to `spans[3i + 2]`; a start of -1 means the document is deleted. Arrays moved to the
 * thread, not an object per change to copy there and back into objects.
 */
interface Rows {
  collections: string[];
  ids: string[];
  spans: Int32Array;
  chunk?: Uint8Array;
}

/** What the main thread asks the writer thread, in commit order (each message is a list of them, numbered). */
type WriteRequest =
  | ({
      kind: 'changes';
      created: readonly string[];
      /** The commit's last rows (its last buffer and its deletions): the rows of its full buffers went ahead as parts. */
    } & Rows)
  | { kind: 'index'; collection: string; spec: ResolvedIndexSpec }
  | { kind: 'drop'; collection: string }
  | { kind: 'close' };

/**
 * Rows of a commit whose buffer is full, moved to the thread at once, before the request that ends the commit. The
 * thread writes them into a transaction it keeps open until that request: neither thread then holds a commit's texts
 * at once. Those of an import (hundreds of megabytes) made V8 run a full collection of the whole heap for every 64 MiB
 * of buffers held, and sat in the thread until the request came. Once written, the thread hands the buffer back for
 * the next part (see `maxPartsAhead`).
 */
type PartMessage = Required<Rows>;

/** The writer thread's answer: the requests it committed, or those of a group that failed, with why. */
type WriteReply = { done: number[] } | { failed: number[]; error: string };

/** How the writer thread's start went, read synchronously by the opener. */
type OpenReply = { ok: true } | { ok: false; error: string; code: string | undefined };

/**
 * The writer thread, as source text: a worker started from a file would need the TypeScript sources compiled in
 * tests. It opens the file, takes the exclusive lock, then commits what it receives. Requests that queued up while
 * it was writing go in one transaction (a group commit: one sync for all), in order; their replies wait for it. A
 * transaction that has received parts of a commit stays open until the commit's request, and commits with it.
 */
const writerSource = String.raw`
const { workerData, receiveMessageOnPort } = require('node:worker_threads');
const Database = require(workerData.sqlite);
const { port, returns, path, synchronous, schema, opened, partsWritten } = workerData;
const flag = new Int32Array(opened);
const written = new Int32Array(partsWritten);
/** Hands a part's buffer back to the main thread, which may be waiting for it (see maxPartsAhead). */
function giveBack(part) {
  returns.postMessage(part.chunk, [part.chunk.buffer]);
  Atomics.add(written, 0, 1);
  Atomics.notify(written, 0);
}
function tell(reply, state) {
  port.postMessage(reply);
  Atomics.store(flag, 0, state);
  Atomics.notify(flag, 0);
}
let db;
try {
  db = new Database(path, { timeout: 200 });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = ' + (synchronous === 'normal' ? 'NORMAL' : 'FULL'));
  // Checkpoint every ~40 MiB of WAL rather than 4: pages written again and again (the event queue's) are copied
  // into the database file once per checkpoint, not once per 1000 pages written.
  db.pragma('wal_autocheckpoint = 10000');
  // The engine's memory is only right if this thread is the file's sole writer: hold the lock from now on.
  db.pragma('locking_mode = EXCLUSIVE');
  db.exec('BEGIN EXCLUSIVE');
  db.exec(schema);
  db.exec('COMMIT');
} catch (err) {
  if (db) db.close();
  tell({ ok: false, error: err.message, code: err.code }, 2);
  db = undefined;
}
if (db) {
  // The body arrives as UTF-8 bytes; CAST stores them as the text they are, without a JavaScript string between.
  const upsert = db.prepare('INSERT INTO documents (collection, id, body) VALUES (?, ?, CAST(? AS TEXT)) ON CONFLICT (collection, id) DO UPDATE SET body = excluded.body');
  const remove = db.prepare('DELETE FROM documents WHERE collection = ? AND id = ?');
  const addCollection = db.prepare('INSERT OR IGNORE INTO collections (name) VALUES (?)');
  const writeIndex = db.prepare('INSERT OR REPLACE INTO indexes (collection, name, spec) VALUES (?, ?, ?)');
  const dropDocuments = db.prepare('DELETE FROM documents WHERE collection = ?');
  const dropIndexes = db.prepare('DELETE FROM indexes WHERE collection = ?');
  const dropCollection = db.prepare('DELETE FROM collections WHERE name = ?');
  function writeRows({ collections, ids, spans, chunk }) {
    for (let i = 0; i < ids.length; i++) {
      const collection = collections[spans[3 * i]];
      const start = spans[3 * i + 1];
      if (start < 0) remove.run(collection, ids[i]);
      else upsert.run(collection, ids[i], chunk.subarray(start, spans[3 * i + 2]));
    }
  }
  function write(request) {
    if (request.kind === 'changes') {
      for (const name of request.created) addCollection.run(name);
      writeRows(request);
    } else if (request.kind === 'index') {
      addCollection.run(request.collection);
      writeIndex.run(request.collection, request.spec.name, JSON.stringify(request.spec));
    } else if (request.kind === 'drop') {
      dropDocuments.run(request.collection);
      dropIndexes.run(request.collection);
      dropCollection.run(request.collection);
    }
  }
  /** Whether a transaction is open, and the requests written in it (answered once it commits). */
  let open = false;
  let held = [];
  let closing = false;
  /** Set once a write failed: the requests of its commit that were still to come fail with it. */
  let failure;
  /** Writes one message: the parts of a commit, or a list of requests. */
  function handle(message) {
    if (!open) {
      db.exec('BEGIN');
      open = true;
    }
    if (!Array.isArray(message)) {
      try {
        return writeRows(message);
      } finally {
        giveBack(message);
      }
    }
    for (const request of message) {
      held.push(request.id);
      if (request.kind === 'close') closing = true;
      else write(request);
    }
  }
  port.on('message', (first) => {
    if (failure !== undefined) {
      // The rest of a commit that failed: its request is answered as its parts were.
      if (Array.isArray(first)) port.postMessage({ failed: first.map((request) => request.id), error: failure });
      else giveBack(first);
      failure = Array.isArray(first) ? undefined : failure;
      return;
    }
    let last = first;
    try {
      handle(first);
      for (let next; held.length < 10000 && !closing && (next = receiveMessageOnPort(port)); ) handle((last = next.message));
      // Parts of a commit whose request has not come: the transaction waits for it.
      if (!Array.isArray(last)) return;
      db.exec('COMMIT');
      open = false;
    } catch (err) {
      if (open && db.inTransaction) db.exec('ROLLBACK');
      open = false;
      if (!Array.isArray(last)) failure = err.message;
      port.postMessage({ failed: held, error: err.message });
      held = [];
      return;
    }
    const done = held;
    held = [];
    if (closing) {
      db.close();
      port.postMessage({ done });
      port.close();
      return;
    }
    port.postMessage({ done });
  });
  tell({ ok: true }, 1);
}
`;

/** Buffers holding the texts of a commit are at most this large, unless one text is larger. */
const chunkBytes = 1 << 20;

/**
 * How many full buffers of a commit may wait for the thread: past that, the commit waits until the thread has written
 * one, and reuses it. The main thread makes texts faster than the thread writes rows: an import of a million entities
 * queued hundreds of megabytes of buffers, freed only at a later collection in both threads, after the commit.
 */
const maxPartsAhead = 8;

/** How long a commit waits for the thread to write a part before the writer gives up on the thread. */
const partWaitMs = 60_000;

/** How long an opener waits for the writer thread to open the file (its lock wait is 200 ms). */
const openTimeoutMs = 30_000;

interface Waiting {
  resolve(): void;
  reject(err: Error): void;
}

/**
 * Persistence for the document engine on a thread of its own: the main thread hands each commit's documents over
 * as JSON text, and the writer thread writes the rows and commits them. The event loop no longer waits for SQLite
 * or its syncs; an operation still resolves only once its write committed. Writes commit in the order the engine
 * made them.
 */
export class SqliteWriter implements EnginePersistence {
  readonly #worker: Worker;
  readonly #port: MessagePort;
  /** Where the thread hands back the buffers of the parts it wrote (read only synchronously, never listened to). */
  readonly #returns: MessagePort;
  /** Parts the thread has written, counted by the thread; `#partsSent` by this side (both wrap as 32-bit integers). */
  readonly #partsWritten: Int32Array;
  #partsSent = 0;
  /** Full-size buffers handed back and not yet reused. */
  readonly #spare: Buffer[] = [];
  readonly #waiting = new Map<number, Waiting>();
  #outbox: (WriteRequest & { id: number })[] = [];
  #outboxTransfer: ArrayBuffer[] = [];
  #nextId = 1;
  #failure: Error | undefined;

  /**
   * Starts the writer thread and waits (synchronously) until it holds the file, its tables made if missing
   * (`schema`); throws what opening it threw.
   */
  constructor(path: string, synchronous: 'full' | 'normal', schema: string) {
    const { port1, port2 } = new MessageChannel();
    const returned = new MessageChannel();
    const opened = new SharedArrayBuffer(4);
    const partsWritten = new SharedArrayBuffer(4);
    const sqlite = createRequire(import.meta.url).resolve('better-sqlite3');
    // No `execArgv` of the process (a TypeScript loader, a test runner's hooks): the thread only needs better-sqlite3,
    // and loading those hooks made each start of the store several times slower.
    this.#worker = new Worker(writerSource, {
      eval: true,
      execArgv: [],
      workerData: { port: port2, returns: returned.port2, path, synchronous, schema, opened, partsWritten, sqlite },
      transferList: [port2, returned.port2],
    });
    this.#port = port1;
    this.#returns = returned.port1;
    this.#partsWritten = new Int32Array(partsWritten);
    Atomics.wait(new Int32Array(opened), 0, 0, openTimeoutMs);
    const reply = receiveMessageOnPort(port1)?.message as OpenReply | undefined;
    if (!reply?.ok) {
      void this.#worker.terminate();
      port1.close();
      returned.port1.close();
      const err = new Error(reply ? reply.error : 'the SQLite writer thread did not start') as Error & { code?: string };
      err.code = reply?.ok === false ? reply.code : undefined;
      throw err;
    }
    this.#worker.unref();
    this.#port.unref();
    this.#port.on('message', (reply: WriteReply) => this.#settle(reply));
    this.#worker.on('error', (err) => this.#fail(err));
    this.#worker.on('exit', () => {
      // Its last replies may still be queued behind the exit notice: read them first.
      for (let reply; (reply = receiveMessageOnPort(this.#port)); ) this.#settle(reply.message as WriteReply);
      this.#fail(new Error('the SQLite writer thread exited'));
    });
  }

  writeChanges(changes: readonly DocChange[], created: readonly string[]): Promise<void> {
    // Each text is written into a buffer moved to the thread, then dropped: copying the documents or their texts to
    // the thread costs the main thread about as much as making the texts, and holding every text of a large commit
    // at once (an import) would double its memory.
    if (this.#failure) throw this.#failure;
    const collections: string[] = [];
    let chunk: Buffer | undefined;
    let used = 0;
    /** The rows of `chunk`, and the deletions (which go with the last rows). */
    let ids: string[] = [];
    let spans: number[] = [];
    const deleted: string[] = [];
    const deletedSpans: number[] = [];
    changes.forEach(({ collection, id, after }, index) => {
      let collectionIndex = collections.indexOf(collection);
      if (collectionIndex < 0) collectionIndex = collections.push(collection) - 1;
      if (!after) {
        deleted.push(id);
        deletedSpans.push(collectionIndex, -1, -1);
        return;
      }
      const text = JSON.stringify(after);
      const bytes = Buffer.byteLength(text);
      if (!chunk || used + bytes > chunk.length) {
        if (chunk) this.#sendPart({ collections, ids, spans: Int32Array.from(spans), chunk });
        // Sized for the documents left, if they are like this one, up to `chunkBytes`.
        chunk = this.#buffer(Math.max(bytes, Math.min(chunkBytes, bytes * (changes.length - index))));
        used = 0;
        ids = [];
        spans = [];
      }
      ids.push(id);
      const start = used;
      used += chunk.write(text, used);
      spans.push(collectionIndex, start, used);
    });
    // The last rows go with the request: most commits fit one buffer, and then cost the thread one message.
    const last = Int32Array.from([...spans, ...deletedSpans]);
    const request: WriteRequest = { kind: 'changes', created, collections, ids: [...ids, ...deleted], spans: last, chunk };
    return this.#send(request, chunk ? [last.buffer, chunk.buffer as ArrayBuffer] : [last.buffer]);
  }

  /**
   * Moves the rows of a full buffer to the thread now (see PartMessage), after the requests queued before them: the
   * thread writes messages in the order they come, which must be the order of the commits.
   */
  #sendPart(part: PartMessage): void {
    if (this.#outbox.length > 0) this.#post();
    this.#waitForPartsBelow(maxPartsAhead);
    this.#port.postMessage(part, [part.spans.buffer as ArrayBuffer, part.chunk.buffer as ArrayBuffer]);
    this.#partsSent = (this.#partsSent + 1) | 0;
  }

  /**
   * Blocks until fewer than `limit` parts wait for the thread: the back-pressure of a large commit, which runs in one
   * synchronous call. The thread never waits for this side, so it always gets there, unless it is gone: after
   * `partWaitMs` the writer fails (every later write with it) and so does the commit, before memory changed.
   */
  #waitForPartsBelow(limit: number): void {
    const deadline = performance.now() + partWaitMs;
    for (;;) {
      const written = Atomics.load(this.#partsWritten, 0);
      if (((this.#partsSent - written) | 0) < limit) return;
      const left = deadline - performance.now();
      if (left <= 0 || Atomics.wait(this.#partsWritten, 0, written, left) === 'timed-out') {
        const err = new Error(`the SQLite writer thread wrote no row for ${partWaitMs / 1000} s`);
        this.#fail(err);
        throw err;
      }
    }
  }

  /** A buffer of `size` bytes for texts: one the thread handed back when it is full-size, else a new one. */
  #buffer(size: number): Buffer {
    if (size === chunkBytes) {
      for (let returned; this.#spare.length < maxPartsAhead && (returned = receiveMessageOnPort(this.#returns)); ) {
        // Parts are full-size but for one with a text larger than `chunkBytes` (dropped here).
        const bytes = returned.message as Uint8Array;
        if (bytes.byteLength === chunkBytes) this.#spare.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      }
      const spare = this.#spare.pop();
      if (spare) return spare;
    }
    return Buffer.allocUnsafeSlow(size);
  }

  writeIndex(collection: string, spec: ResolvedIndexSpec): Promise<void> {
    return this.#send({ kind: 'index', collection, spec });
  }

  dropCollection(collection: string): Promise<void> {
    return this.#send({ kind: 'drop', collection });
  }

  /** Commits what was sent, closes the file (releasing its lock) and ends the thread. */
  async close(): Promise<void> {
    try {
      if (!this.#failure) await this.#send({ kind: 'close' });
    } finally {
      await this.#worker.terminate();
      this.#returns.close();
      this.#spare.length = 0;
    }
  }

  /**
   * Queues a request for the thread; the requests of one turn of the event loop travel as one message, posted once
   * the turn's input has been handled (each message costs the main thread a lock shared with the thread and a
   * wake-up of the thread: some 20 µs under load, where requests carrying one event each made two or three commits
   * apiece, each posted alone when posted at the end of its own callback).
   */
  #send(request: WriteRequest, transfer: ArrayBuffer[] = []): Promise<void> {
    if (this.#failure) throw this.#failure;
    const id = this.#nextId++;
    this.#outbox.push({ ...request, id });
    this.#outboxTransfer.push(...transfer);
    if (this.#outbox.length === 1) setImmediate(() => this.#post());
    // Held while a write is on its way, so that the process does not exit before it is answered.
    if (this.#waiting.size === 0) this.#port.ref();
    return new Promise<void>((resolve, reject) => this.#waiting.set(id, { resolve, reject }));
  }

  #post(): void {
    const requests = this.#outbox;
    const transfer = this.#outboxTransfer;
    // Already posted ahead of a commit's parts (`#sendPart`).
    if (requests.length === 0) return;
    this.#outbox = [];
    this.#outboxTransfer = [];
    if (this.#failure) return;
    this.#port.postMessage(requests, transfer);
  }

  #settle(reply: WriteReply): void {
    const error = 'failed' in reply ? new Error(reply.error) : undefined;
    for (const id of 'failed' in reply ? reply.failed : reply.done) {
      const waiting = this.#waiting.get(id);
      this.#waiting.delete(id);
      if (error) waiting?.reject(error);
      else waiting?.resolve();
    }
    if (error) this.#fail(error);
    if (this.#waiting.size === 0) this.#port.unref();
  }

  /** The thread can no longer be trusted with writes: every pending one fails, and so does every later one. */
  #fail(err: Error): void {
    this.#failure ??= err;
    for (const waiting of this.#waiting.values()) waiting.reject(err);
    this.#waiting.clear();
    this.#port.unref();
  }
}
