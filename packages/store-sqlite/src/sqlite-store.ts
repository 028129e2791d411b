import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { DocumentEngine, EngineStore, type DocChange, type EnginePersistence, type ResolvedIndexSpec } from '@vigie/documents';
import { ErrorCodes, VigieError, type Doc } from '@vigie/kernel';

export interface SqliteStoreOptions {
  /**
   * `full` (default): every acknowledged write is fsynced, so it survives a power cut as well as a crash.
   * `normal`: in WAL mode a process crash loses nothing, a power cut may lose the last writes.
   */
  synchronous?: 'full' | 'normal';
}

const schemaVersion = '1';

/**
 * SQLite persistence for the document engine: one row per document (JSON text), one transaction per engine
 * commit. The engine keeps every collection in memory and queries it with MongoDB semantics; SQLite only
 * makes each commit durable and atomic.
 */
class SqlitePersistence implements EnginePersistence {
  readonly #db: Database.Database;
  readonly #upsert: Database.Statement<[string, string, string]>;
  readonly #delete: Database.Statement<[string, string]>;
  readonly #addCollection: Database.Statement<[string]>;
  readonly #writeIndex: Database.Statement<[string, string, string]>;
  readonly #commit: (changes: readonly DocChange[], created: readonly string[]) => void;

  constructor(db: Database.Database) {
    this.#db = db;
    this.#upsert = db.prepare(
      'INSERT INTO documents (collection, id, body) VALUES (?, ?, ?) ON CONFLICT (collection, id) DO UPDATE SET body = excluded.body',
    );
    this.#delete = db.prepare('DELETE FROM documents WHERE collection = ? AND id = ?');
    this.#addCollection = db.prepare('INSERT OR IGNORE INTO collections (name) VALUES (?)');
    this.#writeIndex = db.prepare('INSERT OR REPLACE INTO indexes (collection, name, spec) VALUES (?, ?, ?)');
    this.#commit = db.transaction((changes: readonly DocChange[], created: readonly string[]) => {
      for (const name of created) this.#addCollection.run(name);
      for (const change of changes) {
        if (change.after) this.#upsert.run(change.collection, change.id, JSON.stringify(change.after));
        else this.#delete.run(change.collection, change.id);
      }
    });
  }

  writeChanges(changes: readonly DocChange[], created: readonly string[]): void {
    this.#commit(changes, created);
  }

  writeIndex(collection: string, spec: ResolvedIndexSpec): void {
    this.#db.transaction(() => {
      this.#addCollection.run(collection);
      this.#writeIndex.run(collection, spec.name, JSON.stringify(spec));
    })();
  }

  dropCollection(collection: string): void {
    this.#db.transaction(() => {
      this.#db.prepare('DELETE FROM documents WHERE collection = ?').run(collection);
      this.#db.prepare('DELETE FROM indexes WHERE collection = ?').run(collection);
      this.#db.prepare('DELETE FROM collections WHERE name = ?').run(collection);
    })();
  }
}

function openDatabase(path: string, synchronous: 'full' | 'normal'): Database.Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { timeout: 200 });
  try {
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
    // Checkpoint every ~40 MiB of WAL rather than 4: pages written again and again (the event queue's) are copied
    // into the database file once per checkpoint, not once per 1000 pages written.
    db.pragma('wal_autocheckpoint = 10000');
    // The in-memory mirror is only coherent if this process is the file's sole writer: hold the lock.
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec(`
      CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS collections (name TEXT PRIMARY KEY) WITHOUT ROWID;
      -- seq keeps insertion order, so documents come back in the same natural order after a restart.
      CREATE TABLE IF NOT EXISTS documents (
        seq INTEGER PRIMARY KEY,
        collection TEXT NOT NULL,
        id TEXT NOT NULL,
        body TEXT NOT NULL,
        UNIQUE (collection, id)
      );
      CREATE TABLE IF NOT EXISTS indexes (
        collection TEXT NOT NULL,
        name TEXT NOT NULL,
        spec TEXT NOT NULL,
        PRIMARY KEY (collection, name)
      ) WITHOUT ROWID;
    `);
    const version = db.prepare<[], { value: string }>("SELECT value FROM meta WHERE key = 'schema_version'").get();
    if (!version) db.prepare("INSERT INTO meta (key, value) VALUES ('schema_version', ?)").run(schemaVersion);
    else if (version.value !== schemaVersion) throw new Error(`unsupported store schema version ${version.value} (this build reads ${schemaVersion})`);
    db.exec('COMMIT');
  } catch (err) {
    db.close();
    const busy = (err as { code?: string }).code === 'SQLITE_BUSY';
    throw new VigieError(
      ErrorCodes.StoreFailure,
      busy ? `the store ${path} is in use by another Vigie process (the embedded store has a single writer)` : `cannot open the store ${path}: ${(err as Error).message}`,
      { cause: err },
    );
  }
  return db;
}

/** Reads every collection into a fresh engine bound to the database. */
function loadEngine(db: Database.Database): DocumentEngine {
  const engine = new DocumentEngine(new SqlitePersistence(db));
  const names = db.prepare<[], { name: string }>('SELECT name FROM collections ORDER BY name').all();
  const docsOf = db.prepare<[string], { body: string }>('SELECT body FROM documents WHERE collection = ? ORDER BY seq');
  const indexesOf = db.prepare<[string], { spec: string }>('SELECT spec FROM indexes WHERE collection = ?');
  for (const { name } of names) {
    const docs = docsOf.iterate(name);
    const parsed = (function* (): Generator<Doc> {
      for (const row of docs) yield JSON.parse(row.body) as Doc;
    })();
    engine.load(
      name,
      parsed,
      indexesOf.all(name).map((row) => JSON.parse(row.spec) as ResolvedIndexSpec),
    );
  }
  return engine;
}

/** A Store kept in one SQLite file; see `SqliteStoreOptions` for durability. */
export class SqliteStore extends EngineStore {
  readonly path: string;

  constructor(path: string, options: SqliteStoreOptions = {}) {
    const db = openDatabase(path, options.synchronous ?? 'full');
    super(loadEngine(db), () => db.close());
    this.path = path;
  }
}
