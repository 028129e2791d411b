import { MongoClient, type Collection as DriverCollection, type Db, type FindOptions as DriverFindOptions, type UpdateResult } from 'mongodb';
import {
  ErrorCodes,
  VigieError,
  type BatchOperation,
  type BatchResult,
  type Collection,
  type DeleteResult,
  type Doc,
  type Filter,
  type FindOneAndUpdateOptions,
  type FindOptions,
  type IndexSpec,
  type Store,
  type Update,
  type UpsertOptions,
  type WriteResult,
} from '@vigie/kernel';
import { prepareBatch, runCompensated, runInTransaction } from './batch.js';
import { MongoChanges } from './changes.js';
import { checkCollectionName, checkFilter, checkedUpdate, plainDoc, storedDoc } from './documents.js';
import { storeError } from './errors.js';

export interface MongoStoreOptions {
  /** The database to use; by default the one named in the URL path, else `vigie`. */
  database?: string;
}

/** The database named in a connection string's path (`mongodb://host/<name>?…`), if any. */
function databaseInUrl(url: string): string | undefined {
  const name = /^mongodb(?:\+srv)?:\/\/[^/?]*\/([^?]+)/.exec(url)?.[1];
  return name === undefined ? undefined : decodeURIComponent(name);
}

/**
 * Connects to MongoDB and returns the store. Batches use a server transaction when the server is a replica
 * set or a sharded cluster (`hello` reports a `setName`, or `msg: "isdbgrid"` for mongos); on a standalone
 * server they fall back to best-effort compensation (see the README). Change notifications come from a change stream
 * opened here; where the server refuses it (a standalone server), the store has no `changes` and says why.
 */
export async function createMongoStore(url: string, options: MongoStoreOptions = {}): Promise<MongoStore> {
  let client: MongoClient | undefined;
  try {
    // JSON has no undefined: drop undefined members, in filters too, as cloneJson does in documents.
    client = new MongoClient(url, { ignoreUndefined: true });
    await client.connect();
    const db = client.db(options.database ?? databaseInUrl(url) ?? 'vigie');
    const hello = await db.admin().command({ hello: 1 });
    const transactions = typeof hello.setName === 'string' || hello.msg === 'isdbgrid';
    const changes = await MongoChanges.open(db);
    return new MongoStore(client, db, transactions, changes);
  } catch (err) {
    await client?.close();
    throw new VigieError(ErrorCodes.StoreFailure, `cannot open the MongoDB store: ${(err as Error).message}`, { cause: err });
  }
}

export class MongoStore implements Store {
  /** The driver database, shared with the Agenda backend. */
  readonly db: Db;
  /** Whether batches run in a server transaction; false means best-effort compensation. */
  readonly transactions: boolean;
  /** Absent where the server gives no change streams: then `changesUnavailable` says why. */
  readonly changes?: MongoChanges;
  readonly changesUnavailable?: string;
  readonly #client: MongoClient;
  readonly #collections = new Map<string, MongoCollection<Doc>>();
  #closed = false;

  constructor(client: MongoClient, db: Db, transactions: boolean, changes: MongoChanges | { unavailable: string }) {
    this.#client = client;
    this.db = db;
    this.transactions = transactions;
    if (changes instanceof MongoChanges) this.changes = changes;
    else this.changesUnavailable = changes.unavailable;
  }

  readonly #guard = (): void => {
    if (this.#closed) throw new VigieError(ErrorCodes.StoreFailure, 'the store is closed');
  };

  collection<T extends Doc = Doc>(name: string): Collection<T> {
    let coll = this.#collections.get(name);
    if (!coll) {
      coll = new MongoCollection<Doc>(this.db.collection(checkCollectionName(name)), this.#guard, (ops) => this.batch(ops));
      this.#collections.set(name, coll);
    }
    return coll as unknown as Collection<T>;
  }

  async batch(operations: readonly BatchOperation[]): Promise<BatchResult> {
    this.#guard();
    const steps = prepareBatch(operations);
    if (steps.length === 0) return { inserted: 0, matched: 0, modified: 0, upserted: 0, deleted: 0 };
    return this.transactions ? runInTransaction(this.#client, this.db, steps) : runCompensated(this.db, steps);
  }

  async listCollections(): Promise<string[]> {
    this.#guard();
    try {
      const infos = await this.db.listCollections({}, { nameOnly: true }).toArray();
      return infos.map((info) => info.name).filter((name) => !name.startsWith('system.')).sort();
    } catch (err) {
      throw storeError(err, '');
    }
  }

  async dropCollection(name: string): Promise<void> {
    this.#guard();
    try {
      await this.db.dropCollection(checkCollectionName(name));
    } catch (err) {
      // Servers before 7.0 answer NamespaceNotFound for a missing collection; dropping one is a no-op here.
      if ((err as { code?: unknown }).code === 26) return;
      throw storeError(err, name);
    }
  }

  async ping(): Promise<void> {
    this.#guard();
    try {
      await this.db.command({ ping: 1 });
    } catch (err) {
      throw storeError(err, '');
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.changes?.close();
    await this.#client.close();
  }
}

function writeResult(r: UpdateResult): WriteResult {
  return { matchedCount: r.matchedCount, modifiedCount: r.modifiedCount, upsertedId: r.upsertedId === null ? null : String(r.upsertedId) };
}

function findOptions(options: FindOptions): DriverFindOptions {
  const out: DriverFindOptions = {};
  if (options.sort && Object.keys(options.sort).length > 0) out.sort = options.sort;
  if (options.skip) out.skip = options.skip;
  if (options.limit) out.limit = options.limit;
  if (options.projection) out.projection = options.projection;
  return out;
}

class MongoCollection<T extends Doc> implements Collection<T> {
  readonly name: string;
  readonly #driver: DriverCollection;
  readonly #guard: () => void;
  readonly #batch: (operations: readonly BatchOperation[]) => Promise<BatchResult>;

  constructor(driver: DriverCollection, guard: () => void, batch: (operations: readonly BatchOperation[]) => Promise<BatchResult>) {
    this.name = driver.collectionName;
    this.#driver = driver;
    this.#guard = guard;
    this.#batch = batch;
  }

  /** Every call: refused once the store is closed, and whatever fails surfaces as a kernel error. */
  async #run<R>(work: (c: DriverCollection) => Promise<R>): Promise<R> {
    this.#guard();
    try {
      return await work(this.#driver);
    } catch (err) {
      throw storeError(err, this.name);
    }
  }

  find(filter: Filter = {}, options: FindOptions = {}): Promise<T[]> {
    return this.#run(async (c) => (await c.find(checkFilter(filter), findOptions(options)).toArray()).map(plainDoc) as T[]);
  }

  findOne(filter: Filter, options: Omit<FindOptions, 'limit'> = {}): Promise<T | null> {
    return this.#run(async (c) => {
      const doc = await c.findOne(checkFilter(filter), findOptions(options));
      return doc === null ? null : (plainDoc(doc) as T);
    });
  }

  count(filter: Filter = {}): Promise<number> {
    return this.#run((c) => c.countDocuments(checkFilter(filter)));
  }

  async insertOne(doc: T): Promise<void> {
    await this.#run((c) => c.insertOne(storedDoc(doc)));
  }

  /** All or nothing, so it runs as a batch: in a transaction, or compensated on a standalone server. */
  async insertMany(docs: readonly T[]): Promise<void> {
    await this.#batch(docs.map((doc) => ({ op: 'insert', collection: this.name, doc })));
  }

  replaceOne(filter: Filter, doc: T, options: UpsertOptions = {}): Promise<WriteResult> {
    return this.#run(async (c) => writeResult(await c.replaceOne(checkFilter(filter), storedDoc(doc), { upsert: options.upsert === true })));
  }

  updateOne(filter: Filter, update: Update, options: UpsertOptions = {}): Promise<WriteResult> {
    const upsert = options.upsert === true;
    return this.#run(async (c) => writeResult(await c.updateOne(checkFilter(filter), checkedUpdate(update, filter, upsert), { upsert })));
  }

  updateMany(filter: Filter, update: Update): Promise<WriteResult> {
    return this.#run(async (c) => writeResult(await c.updateMany(checkFilter(filter), checkedUpdate(update, filter, false))));
  }

  findOneAndUpdate(filter: Filter, update: Update, options: FindOneAndUpdateOptions = {}): Promise<T | null> {
    const upsert = options.upsert === true;
    return this.#run(async (c) => {
      const doc = await c.findOneAndUpdate(checkFilter(filter), checkedUpdate(update, filter, upsert), {
        upsert,
        returnDocument: options.returnDocument ?? 'after',
        includeResultMetadata: false,
        ...(options.sort ? { sort: options.sort } : {}),
      });
      return doc === null ? null : (plainDoc(doc) as T);
    });
  }

  deleteOne(filter: Filter): Promise<DeleteResult> {
    return this.#run(async (c) => ({ deletedCount: (await c.deleteOne(checkFilter(filter))).deletedCount }));
  }

  deleteMany(filter: Filter): Promise<DeleteResult> {
    return this.#run(async (c) => ({ deletedCount: (await c.deleteMany(checkFilter(filter))).deletedCount }));
  }

  /** MongoDB makes this idempotent, and refuses a unique index over duplicates with E11000 (DUPLICATE_KEY). */
  async createIndex(spec: IndexSpec): Promise<void> {
    await this.#run(async (c) => {
      if (Object.keys(spec.keys).length === 0) throw new VigieError(ErrorCodes.StoreFailure, 'an index needs at least one key');
      return c.createIndex(spec.keys, { ...(spec.unique === true ? { unique: true } : {}), ...(spec.name ? { name: spec.name } : {}) });
    });
  }
}
