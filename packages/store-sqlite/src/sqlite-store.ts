import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { DocumentEngine, EngineStore, type ResolvedIndexSpec } from '@vigie/documents';
import { ErrorCodes, VigieError, type Doc } from '@vigie/kernel';
import { SqliteWriter } from './sqlite-writer.js';

export interface SqliteStoreOptions {
  /**
   * `full` (default): every acknowledged write is fsynced, so it survives a power cut as well as a crash.
   * `normal`: in WAL mode a process crash loses nothing, a power cut may lose the last writes.
   */
  synchronous?: 'full' | 'normal';
}

const schemaVersion = '1';

/** The tables of the file; `seq` keeps insertion order, so documents come back in the same order after a restart. */
const schema = `
  CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS collections (name TEXT PRIMARY KEY) WITHOUT ROWID;
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
`;

/** Why the file could not be opened, as the store reports it. */
function openFailure(path: string, err: unknown): VigieError {
  const busy = (err as { code?: string }).code === 'SQLITE_BUSY';
  const message = busy
    ? `the store ${path} is in use by another Vigie process (the embedded store has a single writer)`
    : `cannot open the store ${path}: ${(err as Error).message}`;
  return new VigieError(ErrorCodes.StoreFailure, message, { cause: err });
}

/** Opens the file to read it at start (its tables made, its version checked), holding its lock meanwhile. */
function openDatabase(path: string, synchronous: 'full' | 'normal'): Database.Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { timeout: 200 });
  try {
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
    // The in-memory mirror is only coherent if this process is the file's sole writer: hold the lock.
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec(schema);
    const version = db.prepare<[], { value: string }>("SELECT value FROM meta WHERE key = 'schema_version'").get();
    if (!version) db.prepare("INSERT INTO meta (key, value) VALUES ('schema_version', ?)").run(schemaVersion);
    else if (version.value !== schemaVersion) throw new Error(`unsupported store schema version ${version.value} (this build reads ${schemaVersion})`);
    db.exec('COMMIT');
  } catch (err) {
    db.close();
    throw openFailure(path, err);
  }
  return db;
}

/** A collection as the file holds it. */
interface StoredCollection {
  name: string;
  docs: Doc[];
  indexes: ResolvedIndexSpec[];
}

/** Every collection of the file: documents in insertion order, and the indexes declared on them. */
function readCollections(db: Database.Database): StoredCollection[] {
  const names = db.prepare<[], { name: string }>('SELECT name FROM collections ORDER BY name').all();
  const docsOf = db.prepare<[string], { body: string }>('SELECT body FROM documents WHERE collection = ? ORDER BY seq');
  const indexesOf = db.prepare<[string], { spec: string }>('SELECT spec FROM indexes WHERE collection = ?');
  return names.map(({ name }) => ({
    name,
    docs: Array.from(docsOf.iterate(name), (row) => JSON.parse(row.body) as Doc),
    indexes: indexesOf.all(name).map((row) => JSON.parse(row.spec) as ResolvedIndexSpec),
  }));
}

/**
 * Reads the file, then hands it to a writer thread that holds it from then on. The engine keeps every collection in
 * memory and queries it with MongoDB semantics; SQLite only makes each commit durable and atomic.
 */
function openEngine(path: string, synchronous: 'full' | 'normal'): { engine: DocumentEngine; writer: SqliteWriter } {
  const db = openDatabase(path, synchronous);
  let stored: StoredCollection[];
  try {
    stored = readCollections(db);
  } finally {
    db.close();
  }
  let writer: SqliteWriter;
  try {
    writer = new SqliteWriter(path, synchronous, schema);
  } catch (err) {
    throw openFailure(path, err);
  }
  const engine = new DocumentEngine(writer);
  for (const { name, docs, indexes } of stored) engine.load(name, docs, indexes);
  return { engine, writer };
}

/** A Store kept in one SQLite file; see `SqliteStoreOptions` for durability. */
export class SqliteStore extends EngineStore {
  readonly path: string;

  constructor(path: string, options: SqliteStoreOptions = {}) {
    const { engine, writer } = openEngine(path, options.synchronous ?? 'full');
    super(engine, () => writer.close());
    this.path = path;
  }
}
