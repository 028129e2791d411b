import { createHash } from 'node:crypto';
import pg from 'pg';
import { DocumentEngine, projectCopy, type DocChange } from '@vigie/documents';
import {
  DuplicateKeyError,
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
  type StoreChanges,
  type Update,
  type UpsertOptions,
  type WriteResult,
} from '@vigie/kernel';
import { jsonEqual } from '@vigie/json';
import { prefilter, valuesExpression, valuesPath } from './prefilter.js';

/** The channel every node LISTENs on; the payload is the changed collection's name. */
export const changesChannel = 'vigie_collection_changed';

/** PostgreSQL error codes the store answers rather than reports. */
const pgCodes = {
  uniqueViolation: '23505',
  undefinedTable: '42P01',
  serializationFailure: '40001',
  deadlock: '40P01',
} as const;

/** A write transaction that lost a deadlock or a serialization race is run again, this many times at most. */
const maxAttempts = 5;

const catalog = `
  CREATE TABLE IF NOT EXISTS vigie_collections (name text PRIMARY KEY, table_name text NOT NULL UNIQUE);
  CREATE TABLE IF NOT EXISTS vigie_indexes (
    collection text NOT NULL REFERENCES vigie_collections (name) ON DELETE CASCADE,
    name text NOT NULL,
    spec jsonb NOT NULL,
    PRIMARY KEY (collection, name)
  );
`;

/** Serializes schema changes (tables, indexes) between nodes: `CREATE ... IF NOT EXISTS` alone races. */
const ddlLock = 'SELECT pg_advisory_xact_lock(7125202611)';

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 12);
}

/** A collection's table: `c_<name>`, shortened with a hash of the name to PostgreSQL's 63-byte identifiers. */
export function tableName(collection: string): string {
  return collection.length <= 60 ? `c_${collection}` : `c_${collection.slice(0, 45)}_${shortHash(collection)}`;
}

function pgCode(err: unknown): string | undefined {
  return err instanceof pg.DatabaseError ? err.code : undefined;
}

/** A PostgreSQL or driver failure as the kernel's errors; a duplicate key as `DUPLICATE_KEY`. */
function storeError(collection: string, err: unknown): Error {
  if (err instanceof VigieError) return err;
  if (pgCode(err) === pgCodes.uniqueViolation) {
    const detail = (err as pg.DatabaseError).detail ?? '';
    const id = /^Key \(id\)=\((.*)\) already exists\.$/s.exec(detail)?.[1];
    return id !== undefined
      ? new DuplicateKeyError(collection, { _id: id })
      : new DuplicateKeyError(collection, {}, (err as pg.DatabaseError).constraint ?? 'unique index');
  }
  return new VigieError(ErrorCodes.StoreFailure, `PostgreSQL store: ${(err as Error).message}`, { cause: err });
}

function checkCollectionName(name: string): void {
  if (!/^[A-Za-z0-9_.-]{1,120}$/.test(name)) throw new VigieError(ErrorCodes.StoreFailure, `invalid collection name ${JSON.stringify(name)}`);
}

export interface PostgresStoreOptions {
  /** A PostgreSQL connection string (`postgres://user@host:5432/database`). */
  url: string;
  /** Connections in the pool (default 10). */
  poolSize?: number;
}

/**
 * The store port on PostgreSQL: one table per collection (`id text` key, `doc jsonb`, `seq` keeping insertion order),
 * declared indexes as expression indexes. A query's SQL keeps the rows it may match (see `prefilter`); the
 * document engine of `@vigie/documents` matches, sorts, updates and projects them with MongoDB semantics. Every
 * write is one transaction that locks the rows it may change (`FOR UPDATE`) and reads them as committed, so
 * conditional updates (`findOneAndUpdate` on a revision or a lock) are atomic across nodes. Each committed write
 * NOTIFYs its collections on `changesChannel`; `changes` delivers them, from every node.
 */
export class PostgresStore implements Store {
  readonly pool: pg.Pool;
  readonly changes: StoreChanges;
  readonly #known = new Set<string>();
  readonly #creating = new Map<string, Promise<void>>();
  readonly #collections = new Map<string, PostgresCollection<Doc>>();
  readonly #listeners = new Set<(collection: string) => void>();
  #listener: pg.Client | undefined;
  #listening: Promise<void> | undefined;
  #closed = false;

  private constructor(options: PostgresStoreOptions) {
    this.pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
    // An idle connection the server ends is replaced by the pool; the error must not crash the process.
    this.pool.on('error', () => undefined);
    this.changes = { subscribe: (listener) => this.#subscribe(listener) };
    this.#url = options.url;
  }

  readonly #url: string;

  /** Connects, and makes the catalog tables if the database has none. */
  static async open(options: PostgresStoreOptions): Promise<PostgresStore> {
    const store = new PostgresStore(options);
    try {
      await store.#transaction('catalog', async (client) => {
        await client.query(ddlLock);
        await client.query(catalog);
      });
    } catch (err) {
      await store.pool.end();
      throw err;
    }
    return store;
  }

  #guard(): void {
    if (this.#closed) throw new VigieError(ErrorCodes.StoreFailure, 'the store is closed');
  }

  collection<T extends Doc = Doc>(name: string): Collection<T> {
    checkCollectionName(name);
    let coll = this.#collections.get(name);
    if (!coll) {
      coll = new PostgresCollection<Doc>(name, this);
      this.#collections.set(name, coll);
    }
    return coll as unknown as Collection<T>;
  }

  /** Runs `work` in one transaction, again when it lost a deadlock or serialization race. */
  async #transaction<R>(collection: string, work: (client: pg.PoolClient) => Promise<R>): Promise<R> {
    this.#guard();
    for (let attempt = 1; ; attempt++) {
      let client: pg.PoolClient;
      try {
        client = await this.pool.connect();
      } catch (err) {
        throw storeError(collection, err);
      }
      try {
        await client.query('BEGIN');
        const result = await work(client);
        await client.query('COMMIT');
        client.release();
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        client.release();
        const code = pgCode(err);
        if ((code === pgCodes.deadlock || code === pgCodes.serializationFailure) && attempt < maxAttempts) continue;
        // Another node dropped a collection this node had seen: its table is made again by the next write.
        if (code === pgCodes.undefinedTable) this.#known.clear();
        throw storeError(collection, err);
      }
    }
  }

  /** Makes the collections' tables if this node has not seen them yet (outside the writes' transactions). */
  async ensureTables(collections: Iterable<string>): Promise<void> {
    const waits: Promise<void>[] = [];
    for (const name of new Set(collections)) {
      if (this.#known.has(name)) continue;
      // One creation per collection at a time: the writes that arrive meanwhile wait for it.
      let creating = this.#creating.get(name);
      if (!creating) {
        creating = this.#createTable(name).finally(() => this.#creating.delete(name));
        this.#creating.set(name, creating);
      }
      waits.push(creating);
    }
    await Promise.all(waits);
  }

  async #createTable(name: string): Promise<void> {
    checkCollectionName(name);
    await this.#transaction(name, async (client) => {
      await client.query(ddlLock);
      await client.query(`CREATE TABLE IF NOT EXISTS ${quoteIdent(tableName(name))} (seq bigint GENERATED ALWAYS AS IDENTITY, id text PRIMARY KEY, doc jsonb NOT NULL)`);
      await client.query('INSERT INTO vigie_collections (name, table_name) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, tableName(name)]);
    });
    this.#known.add(name);
  }

  /**
   * The rows a filter may match, in insertion order: locked for the rest of the transaction when `client` is in
   * one. A missing table is an empty collection.
   */
  async candidates(collection: string, filter: Filter, client?: pg.PoolClient, page?: { skip?: number; limit?: number }): Promise<{ docs: Doc[]; exact: boolean }> {
    this.#guard();
    const where = prefilter(filter);
    let sql = `SELECT doc FROM ${quoteIdent(tableName(collection))} WHERE ${where.sql} ORDER BY seq`;
    if (page && where.exact) {
      if (page.limit) sql += ` LIMIT ${Math.floor(page.limit)}`;
      if (page.skip) sql += ` OFFSET ${Math.floor(page.skip)}`;
    }
    if (client) sql += ' FOR UPDATE';
    try {
      const result = await (client ?? this.pool).query<{ doc: Doc }>(sql, where.params);
      return { docs: result.rows.map((row) => row.doc), exact: where.exact };
    } catch (err) {
      // In a transaction the error has aborted it: the transaction's runner deals with it.
      if (pgCode(err) === pgCodes.undefinedTable && !client) return { docs: [], exact: where.exact };
      throw client ? err : storeError(collection, err);
    }
  }

  async count(collection: string, filter: Filter): Promise<number | null> {
    const where = prefilter(filter);
    if (!where.exact) return null;
    try {
      const result = await this.pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${quoteIdent(tableName(collection))} WHERE ${where.sql}`, where.params);
      return Number(result.rows[0]?.n ?? 0);
    } catch (err) {
      if (pgCode(err) === pgCodes.undefinedTable) return 0;
      throw storeError(collection, err);
    }
  }

  /**
   * Runs write operations in one transaction: for each, the rows its filter may match are locked and loaded into a
   * fresh document engine, which applies the operation with MongoDB semantics; its changes are then written, so
   * the next operation sees them. Unique keys are the database's to enforce (all or nothing on a duplicate).
   */
  async write<R>(steps: readonly WriteStep[], finish: (results: unknown[]) => R): Promise<R> {
    const collections = new Set(steps.map((s) => s.collection));
    const run = async (): Promise<R> => {
      await this.ensureTables(collections);
      return this.#transaction(steps[0]?.collection ?? 'batch', async (client) => {
        const results: unknown[] = [];
        const changed = new Set<string>();
        for (const step of steps) {
          const changes: DocChange[] = [];
          const engine = new DocumentEngine({
            writeChanges: (list) => void changes.push(...list),
            writeIndex: () => undefined,
            dropCollection: () => undefined,
          });
          if (step.filter) engine.load(step.collection, (await this.candidates(step.collection, step.filter, client)).docs);
          results.push(engine.transaction((tx) => step.apply(tx)));
          for (const change of changes) {
            await writeChange(client, change);
            changed.add(change.collection);
          }
        }
        for (const collection of changed) await client.query('SELECT pg_notify($1, $2)', [changesChannel, collection]);
        return finish(results);
      });
    };
    try {
      return await run();
    } catch (err) {
      // Two nodes upserting the same new document: the loser runs again and finds the winner's. A table another
      // node dropped is made again.
      const raced = err instanceof DuplicateKeyError && steps.some((s) => s.upsert);
      if (raced || pgCode((err as { cause?: unknown }).cause) === pgCodes.undefinedTable) return run();
      throw err;
    }
  }

  async createIndex(collection: string, spec: IndexSpec): Promise<void> {
    const keys = Object.keys(spec.keys);
    if (keys.length === 0) throw new VigieError(ErrorCodes.StoreFailure, 'an index needs at least one key');
    const resolved = {
      keys: { ...spec.keys },
      unique: spec.unique === true,
      name: spec.name ?? Object.entries(spec.keys).map(([k, d]) => `${k}_${d}`).join('_'),
    };
    await this.ensureTables([collection]);
    const table = tableName(collection);
    await this.#transaction(collection, async (client) => {
      await client.query(ddlLock);
      const existing = await client.query<{ spec: unknown }>('SELECT spec FROM vigie_indexes WHERE collection = $1 AND name = $2', [collection, resolved.name]);
      if (existing.rows[0]) {
        if (jsonEqual(existing.rows[0].spec, resolved)) return;
        throw new VigieError(ErrorCodes.StoreFailure, `index ${resolved.name} already exists with different options`);
      }
      const indexName = (kind: string): string => quoteIdent(`${table.slice(0, 40)}_${shortHash(`${collection}\u0000${resolved.name}`)}_${kind}`);
      // Lookups: the values the first key reaches (arrays flattened), in a GIN index the prefilter's `@>` uses.
      const path = valuesPath(keys[0] as string);
      if (keys[0] !== '_id' && path !== null) {
        await client.query(`CREATE INDEX IF NOT EXISTS ${indexName('v')} ON ${quoteIdent(table)} USING gin ((${valuesExpression(path)}) jsonb_path_ops)`);
      }
      // Uniqueness: the keys' values, a missing field counting as null as in MongoDB.
      if (resolved.unique) {
        const columns = keys.map((k) => `(COALESCE(doc #> ${pgTextArray(k.split('.'))}, 'null'::jsonb))`).join(', ');
        try {
          await client.query(`CREATE UNIQUE INDEX IF NOT EXISTS ${indexName('u')} ON ${quoteIdent(table)} (${columns})`);
        } catch (err) {
          if (pgCode(err) === pgCodes.uniqueViolation) throw new DuplicateKeyError(collection, {}, resolved.name);
          throw err;
        }
      }
      await client.query('INSERT INTO vigie_indexes (collection, name, spec) VALUES ($1, $2, $3)', [collection, resolved.name, JSON.stringify(resolved)]);
    });
  }

  async batch(operations: readonly BatchOperation[]): Promise<BatchResult> {
    this.#guard();
    const steps = operations.map(batchStep);
    return this.write(steps, (results) => {
      const total: BatchResult = { inserted: 0, matched: 0, modified: 0, upserted: 0, deleted: 0 };
      for (const r of results as Partial<BatchResult & WriteResult>[]) {
        total.inserted += r.inserted ?? 0;
        total.deleted += r.deleted ?? 0;
        total.matched += r.matchedCount ?? 0;
        total.modified += r.modifiedCount ?? 0;
        if (r.upsertedId) total.upserted += 1;
      }
      return total;
    });
  }

  async listCollections(): Promise<string[]> {
    this.#guard();
    try {
      return (await this.pool.query<{ name: string }>('SELECT name FROM vigie_collections ORDER BY name')).rows.map((r) => r.name);
    } catch (err) {
      throw storeError('vigie_collections', err);
    }
  }

  async dropCollection(name: string): Promise<void> {
    checkCollectionName(name);
    await this.#transaction(name, async (client) => {
      await client.query(ddlLock);
      await client.query(`DROP TABLE IF EXISTS ${quoteIdent(tableName(name))}`);
      await client.query('DELETE FROM vigie_collections WHERE name = $1', [name]);
      await client.query('SELECT pg_notify($1, $2)', [changesChannel, name]);
    });
    this.#known.delete(name);
  }

  async ping(): Promise<void> {
    this.#guard();
    try {
      await this.pool.query('SELECT 1');
    } catch (err) {
      throw storeError('ping', err);
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#listeners.clear();
    await this.#listener?.end().catch(() => undefined);
    await this.pool.end();
  }

  /**
   * Delivers every NOTIFY on `changesChannel` to `listener`, over one connection of its own made on the first
   * subscription; when that connection is lost it is made again, and every listener is told that anything may have
   * changed (an empty name), since notifications sent meanwhile are gone.
   */
  #subscribe(listener: (collection: string) => void): () => void {
    this.#listeners.add(listener);
    this.#listening ??= this.#listen();
    return () => this.#listeners.delete(listener);
  }

  /** Resolves once LISTEN is in effect (tests wait on it so that no early write goes unheard). */
  listening(): Promise<void> {
    return this.#listening ?? Promise.resolve();
  }

  async #listen(): Promise<void> {
    while (!this.#closed) {
      const client = new pg.Client({ connectionString: this.#url });
      try {
        await client.connect();
        const lost = new Promise<void>((resolve) => {
          client.on('error', () => resolve());
          client.on('end', () => resolve());
        });
        client.on('notification', (message) => {
          if (message.channel !== changesChannel) return;
          for (const listener of this.#listeners) listener(message.payload ?? '');
        });
        await client.query(`LISTEN ${changesChannel}`);
        if (this.#closed) {
          await client.end();
          return;
        }
        this.#listener = client;
        for (const listener of this.#listeners) listener('');
        // Settled for `listening()`; watching the connection goes on in the background.
        void lost.then(async () => {
          this.#listener = undefined;
          await client.end().catch(() => undefined);
          if (!this.#closed) {
            await new Promise((resolve) => setTimeout(resolve, 1000));
            this.#listening = this.#listen();
          }
        });
        return;
      } catch {
        await client.end().catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  }
}

/** `{a,b}` as a PostgreSQL text array literal for `#>`; path segments are quoted as array elements. */
function pgTextArray(segments: readonly string[]): string {
  const inner = segments.map((s) => `"${s.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`).join(',');
  return `'{${inner.replaceAll("'", "''")}}'`;
}

async function writeChange(client: pg.PoolClient, change: DocChange): Promise<void> {
  const table = quoteIdent(tableName(change.collection));
  if (change.after === null) await client.query(`DELETE FROM ${table} WHERE id = $1`, [change.id]);
  else if (change.before === null) await client.query(`INSERT INTO ${table} (id, doc) VALUES ($1, $2::jsonb)`, [change.id, JSON.stringify(change.after)]);
  else await client.query(`UPDATE ${table} SET doc = $2::jsonb WHERE id = $1`, [change.id, JSON.stringify(change.after)]);
}

/** One operation of a write: the collection it changes, the filter of the rows it reads, and what it does to them. */
export interface WriteStep {
  collection: string;
  filter?: Filter;
  upsert?: boolean;
  apply: (tx: Parameters<Parameters<DocumentEngine['transaction']>[0]>[0]) => unknown;
}

function batchStep(operation: BatchOperation): WriteStep {
  const { collection } = operation;
  switch (operation.op) {
    case 'insert':
      return { collection, apply: (tx) => (tx.insert(collection, operation.doc), { inserted: 1 }) };
    case 'replace':
      return {
        collection,
        filter: operation.filter,
        upsert: operation.upsert,
        apply: (tx) => tx.replace(collection, operation.filter, operation.doc, operation.upsert === true),
      };
    case 'update':
      return {
        collection,
        filter: operation.filter,
        upsert: operation.upsert,
        apply: (tx) => tx.update(collection, operation.filter, operation.update, { upsert: operation.upsert === true, multi: operation.multi === true }).result,
      };
    case 'delete':
      return { collection, filter: operation.filter, apply: (tx) => ({ deleted: tx.delete(collection, operation.filter, operation.multi === true) }) };
    default:
      throw new VigieError(ErrorCodes.StoreFailure, `unknown batch operation ${(operation as { op: string }).op}`);
  }
}

class PostgresCollection<T extends Doc> implements Collection<T> {
  readonly name: string;
  readonly #store: PostgresStore;

  constructor(name: string, store: PostgresStore) {
    this.name = name;
    this.#store = store;
  }

  /** Matching documents, sorted and paged: by the database when its clause is exact and no sort is asked. */
  async #find(filter: Filter, options: Omit<FindOptions, 'projection'>): Promise<Doc[]> {
    const sorted = options.sort !== undefined && Object.keys(options.sort).length > 0;
    const { docs, exact } = await this.#store.candidates(this.name, filter, undefined, sorted ? undefined : options);
    if (exact && !sorted) return docs;
    const engine = new DocumentEngine();
    engine.load(this.name, docs);
    return engine.find(this.name, filter, options);
  }

  async find(filter: Filter = {}, options: FindOptions = {}): Promise<T[]> {
    const { projection, ...rest } = options;
    const docs = await this.#find(filter, rest);
    return (projection ? docs.map((doc) => projectCopy(doc, projection)) : docs) as T[];
  }

  async findOne(filter: Filter, options: Omit<FindOptions, 'limit'> = {}): Promise<T | null> {
    const { projection, ...rest } = options;
    const [doc] = await this.#find(filter, { ...rest, limit: 1 });
    if (!doc) return null;
    return (projection ? projectCopy(doc, projection) : doc) as T;
  }

  async count(filter: Filter = {}): Promise<number> {
    const counted = await this.#store.count(this.name, filter);
    if (counted !== null) return counted;
    const engine = new DocumentEngine();
    engine.load(this.name, (await this.#store.candidates(this.name, filter)).docs);
    return engine.count(this.name, filter);
  }

  async insertOne(doc: T): Promise<void> {
    await this.#store.write([{ collection: this.name, apply: (tx) => tx.insert(this.name, doc) }], () => undefined);
  }

  async insertMany(docs: readonly T[]): Promise<void> {
    await this.#store.write(
      [
        {
          collection: this.name,
          apply: (tx) => {
            for (const doc of docs) tx.insert(this.name, doc);
          },
        },
      ],
      () => undefined,
    );
  }

  async replaceOne(filter: Filter, doc: T, options: UpsertOptions = {}): Promise<WriteResult> {
    const upsert = options.upsert === true;
    return this.#store.write([{ collection: this.name, filter, upsert, apply: (tx) => tx.replace(this.name, filter, doc, upsert) }], (r) => r[0] as WriteResult);
  }

  async updateOne(filter: Filter, update: Update, options: UpsertOptions = {}): Promise<WriteResult> {
    const upsert = options.upsert === true;
    return this.#store.write(
      [{ collection: this.name, filter, upsert, apply: (tx) => tx.update(this.name, filter, update, { upsert, multi: false }).result }],
      (r) => r[0] as WriteResult,
    );
  }

  async updateMany(filter: Filter, update: Update): Promise<WriteResult> {
    return this.#store.write(
      [{ collection: this.name, filter, apply: (tx) => tx.update(this.name, filter, update, { upsert: false, multi: true }).result }],
      (r) => r[0] as WriteResult,
    );
  }

  async findOneAndUpdate(filter: Filter, update: Update, options: FindOneAndUpdateOptions = {}): Promise<T | null> {
    const upsert = options.upsert === true;
    return this.#store.write(
      [{ collection: this.name, filter, upsert, apply: (tx) => tx.update(this.name, filter, update, { upsert, multi: false, sort: options.sort }) }],
      (r) => {
        const { before, after } = r[0] as { before: Doc | null; after: Doc | null };
        return ((options.returnDocument === 'before' ? before : after) ?? null) as T | null;
      },
    );
  }

  async deleteOne(filter: Filter): Promise<DeleteResult> {
    return this.#store.write([{ collection: this.name, filter, apply: (tx) => tx.delete(this.name, filter, false) }], (r) => ({ deletedCount: r[0] as number }));
  }

  async deleteMany(filter: Filter): Promise<DeleteResult> {
    return this.#store.write([{ collection: this.name, filter, apply: (tx) => tx.delete(this.name, filter, true) }], (r) => ({ deletedCount: r[0] as number }));
  }

  async createIndex(spec: IndexSpec): Promise<void> {
    await this.#store.createIndex(this.name, spec);
  }
}
