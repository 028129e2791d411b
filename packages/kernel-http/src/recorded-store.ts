import type {
  BatchOperation,
  BatchResult,
  Collection,
  DeleteResult,
  Doc,
  Filter,
  FindOneAndUpdateOptions,
  FindOptions,
  IndexSpec,
  Store,
  Update,
  UpsertOptions,
  WriteResult,
} from '@vigie/kernel';
import { auditSnapshot, openChangeLog } from './audit-changes.js';

/**
 * A collection that, while an audited request is served, adds each document it writes to the request's audit record
 * with its state before and after. Outside audited requests (engines, jobs, reads) it only delegates. The extra reads
 * (the documents before, then after) are bounded by the log's room: past the limit, writes are only counted.
 */
export class RecordedCollection<T extends Doc> implements Collection<T> {
  constructor(private readonly inner: Collection<T>) {}

  get name(): string {
    return this.inner.name;
  }

  find(filter?: Filter, options?: FindOptions): Promise<T[]> {
    return this.inner.find(filter, options);
  }

  findOne(filter: Filter, options?: Omit<FindOptions, 'limit'>): Promise<T | null> {
    return this.inner.findOne(filter, options);
  }

  count(filter?: Filter): Promise<number> {
    return this.inner.count(filter);
  }

  createIndex(spec: IndexSpec): Promise<void> {
    return this.inner.createIndex(spec);
  }

  async insertOne(doc: T): Promise<void> {
    await this.inner.insertOne(doc);
    openChangeLog()?.add(this.name, doc._id, null, auditSnapshot(doc));
  }

  async insertMany(docs: readonly T[]): Promise<void> {
    await this.inner.insertMany(docs);
    const log = openChangeLog();
    if (!log) return;
    const copied = docs.slice(0, log.room);
    for (const doc of copied) log.add(this.name, doc._id, null, auditSnapshot(doc));
    log.omit(docs.length - copied.length);
  }

  replaceOne(filter: Filter, doc: T, options?: UpsertOptions): Promise<WriteResult> {
    return this.#one(filter, () => this.inner.replaceOne(filter, doc, options));
  }

  updateOne(filter: Filter, update: Update, options?: UpsertOptions): Promise<WriteResult> {
    return this.#one(filter, () => this.inner.updateOne(filter, update, options));
  }

  async findOneAndUpdate(filter: Filter, update: Update, options?: FindOneAndUpdateOptions): Promise<T | null> {
    const log = openChangeLog();
    if (!log) return this.inner.findOneAndUpdate(filter, update, options);
    if (log.room === 0) {
      const result = await this.inner.findOneAndUpdate(filter, update, options);
      if (result !== null) log.omit(1);
      return result;
    }
    const before = await this.inner.findOne(filter, options?.sort ? { sort: options.sort } : undefined);
    const beforeSnapshot = auditSnapshot(before);
    const result = await this.inner.findOneAndUpdate(filter, update, options);
    const id = before?._id ?? result?._id;
    if (id !== undefined) {
      const after = options?.returnDocument === 'before' || result === null ? await this.inner.findOne({ _id: id }) : result;
      log.add(this.name, id, beforeSnapshot, auditSnapshot(after));
    }
    return result;
  }

  async updateMany(filter: Filter, update: Update): Promise<WriteResult> {
    const log = openChangeLog();
    if (!log) return this.inner.updateMany(filter, update);
    const befores = log.room > 0 ? await this.inner.find(filter, { limit: log.room }) : [];
    const snapshots = befores.map((doc) => auditSnapshot(doc));
    const result = await this.inner.updateMany(filter, update);
    const afters = befores.length > 0 ? await this.inner.find({ _id: { $in: befores.map((doc) => doc._id) } }) : [];
    const byId = new Map(afters.map((doc) => [doc._id, doc]));
    const copied = log.changes.length;
    befores.forEach((doc, i) => log.add(this.name, doc._id, snapshots[i], auditSnapshot(byId.get(doc._id) ?? null)));
    log.omit(result.modifiedCount - (log.changes.length - copied));
    return result;
  }

  async deleteOne(filter: Filter): Promise<DeleteResult> {
    const log = openChangeLog();
    if (!log) return this.inner.deleteOne(filter);
    const before = log.room > 0 ? await this.inner.findOne(filter) : null;
    const snapshot = auditSnapshot(before);
    const result = await this.inner.deleteOne(filter);
    if (result.deletedCount > 0) {
      if (before) log.add(this.name, before._id, snapshot, null);
      else log.omit(1);
    }
    return result;
  }

  async deleteMany(filter: Filter): Promise<DeleteResult> {
    const log = openChangeLog();
    if (!log) return this.inner.deleteMany(filter);
    const befores = log.room > 0 ? (await this.inner.find(filter, { limit: log.room })).map((doc) => ({ id: doc._id, snapshot: auditSnapshot(doc) })) : [];
    const result = await this.inner.deleteMany(filter);
    const copied = befores.slice(0, result.deletedCount);
    for (const { id, snapshot } of copied) log.add(this.name, id, snapshot, null);
    log.omit(result.deletedCount - copied.length);
    return result;
  }

  /** A write of at most one document: its state read before, the write, its state read after (by `_id`). */
  async #one(filter: Filter, write: () => Promise<WriteResult>): Promise<WriteResult> {
    const log = openChangeLog();
    if (!log) return write();
    if (log.room === 0) {
      const result = await write();
      log.omit(result.modifiedCount + (result.upsertedId !== null ? 1 : 0));
      return result;
    }
    const before = await this.inner.findOne(filter);
    const snapshot = auditSnapshot(before);
    const result = await write();
    const id = before?._id ?? result.upsertedId;
    if (id !== null && (result.modifiedCount > 0 || result.upsertedId !== null)) log.add(this.name, id, snapshot, auditSnapshot(await this.inner.findOne({ _id: id })));
    return result;
  }
}

/**
 * The store features write through (`HttpServerFactory.instrumentStore`): each collection a `RecordedCollection`,
 * each batch recorded, so that what an audited request writes is added to its audit record.
 */
export function recordingStore(store: Store): Store {
  const collection = <T extends Doc>(name: string): Collection<T> => new RecordedCollection(store.collection<T>(name));
  const batch = (operations: readonly BatchOperation[]): Promise<BatchResult> => recordedBatch(store, operations);
  return new Proxy(store, {
    get(target, key, receiver) {
      if (key === 'collection') return collection;
      if (key === 'batch') return batch;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
}

/**
 * Runs an atomic batch and records what it wrote while an audited request is served. Each operation's documents are
 * read before the batch (so an operation sees the state before the batch, not after the previous ones: a batch that
 * writes one document twice records it once, before the first and after the last) and again by `_id` after it.
 */
export async function recordedBatch(store: Store, operations: readonly BatchOperation[]): Promise<BatchResult> {
  const log = openChangeLog();
  if (!log) return store.batch(operations);
  const planned = new Map<string, { collection: string; id: string; before: unknown }>();
  const upserts: { collection: string; filter: Filter }[] = [];
  // At most `room` operations are read before the batch, whatever they find: a large import of new documents (upserts
  // matching nothing) must not cost a read per operation.
  for (const operation of operations.slice(0, log.room)) {
    if (planned.size >= log.room) break;
    if (operation.op === 'insert') {
      const key = `${operation.collection}\u0000${operation.doc._id}`;
      if (!planned.has(key)) planned.set(key, { collection: operation.collection, id: operation.doc._id, before: null });
      continue;
    }
    const many = operation.op !== 'replace' && operation.multi === true;
    const befores = await store.collection(operation.collection).find(operation.filter, { limit: many ? log.room - planned.size : 1 });
    for (const doc of befores) {
      const key = `${operation.collection}\u0000${doc._id}`;
      if (!planned.has(key)) planned.set(key, { collection: operation.collection, id: doc._id, before: auditSnapshot(doc) });
    }
    if (befores.length === 0 && operation.op !== 'delete' && operation.upsert === true) upserts.push({ collection: operation.collection, filter: operation.filter });
  }
  const result = await store.batch(operations);
  const copied = log.changes.length;
  for (const { collection, id, before } of planned.values()) log.add(collection, id, before, auditSnapshot(await store.collection(collection).findOne({ _id: id })));
  for (const { collection, filter } of upserts) {
    if (log.room === 0) break;
    const doc = await store.collection(collection).findOne(filter);
    if (doc && !planned.has(`${collection}\u0000${doc._id}`)) log.add(collection, doc._id, null, auditSnapshot(doc));
  }
  log.omit(result.inserted + result.upserted + result.modified + result.deleted - (log.changes.length - copied));
  return result;
}
