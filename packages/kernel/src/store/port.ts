import type { Logger } from 'pino';
import type { JobStorePort } from '../scheduler/job-store.js';

/**
 * The store port: named collections of JSON documents with a string `_id`, queried with the MongoDB query
 * language. Values must be JSON values (strings, finite numbers, booleans, null, arrays, plain objects);
 * adapters reject anything else so that every adapter returns exactly what was stored.
 */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export interface Doc {
  _id: string;
  [key: string]: unknown;
}

/** A MongoDB query document. `$where`, `$function`, `$accumulator` and `$expr` are refused by every adapter. */
export type Filter = Record<string, unknown>;

/** Update operators every adapter supports. */
export const updateOperators = ['$set', '$unset', '$inc', '$push', '$pull', '$pullAll', '$addToSet', '$setOnInsert', '$min', '$max'] as const;
export type UpdateOperator = (typeof updateOperators)[number];
export type Update = Partial<Record<UpdateOperator, Record<string, unknown>>>;

export type SortSpec = Record<string, 1 | -1>;
export type Projection = Record<string, 0 | 1>;

export interface FindOptions {
  sort?: SortSpec;
  skip?: number;
  limit?: number;
  projection?: Projection;
}

export interface UpsertOptions {
  upsert?: boolean;
}

export interface FindOneAndUpdateOptions extends UpsertOptions {
  sort?: SortSpec;
  /** Which version to return; `after` by default. */
  returnDocument?: 'before' | 'after';
}

export interface WriteResult {
  matchedCount: number;
  modifiedCount: number;
  /** The `_id` of the document an upsert inserted, else null. */
  upsertedId: string | null;
}

export interface DeleteResult {
  deletedCount: number;
}

export interface IndexSpec {
  /** Field paths in order; only ascending single/compound keys are needed by Vigie. */
  keys: Record<string, 1 | -1>;
  unique?: boolean;
  /** Defaults to the MongoDB-style name `field_1_other_1`. */
  name?: string;
}

export interface Collection<T extends Doc = Doc> {
  readonly name: string;
  find(filter?: Filter, options?: FindOptions): Promise<T[]>;
  findOne(filter: Filter, options?: Omit<FindOptions, 'limit'>): Promise<T | null>;
  count(filter?: Filter): Promise<number>;
  /** Throws a `DUPLICATE_KEY` error when `_id` or a unique index key exists. */
  insertOne(doc: T): Promise<void>;
  /** All or nothing: on a duplicate, none of the documents is inserted. */
  insertMany(docs: readonly T[]): Promise<void>;
  replaceOne(filter: Filter, doc: T, options?: UpsertOptions): Promise<WriteResult>;
  updateOne(filter: Filter, update: Update, options?: UpsertOptions): Promise<WriteResult>;
  updateMany(filter: Filter, update: Update): Promise<WriteResult>;
  /** Atomic read-modify-write of the first match (in `sort` order); null when nothing matched and no upsert. */
  findOneAndUpdate(filter: Filter, update: Update, options?: FindOneAndUpdateOptions): Promise<T | null>;
  deleteOne(filter: Filter): Promise<DeleteResult>;
  deleteMany(filter: Filter): Promise<DeleteResult>;
  /** Idempotent; creating a unique index over existing duplicates fails with `DUPLICATE_KEY`. */
  createIndex(spec: IndexSpec): Promise<void>;
}

/**
 * One operation of an atomic batch. `handOver`: the caller gives `doc` to the store and never reads nor changes it
 * again, so a store keeping documents in memory may keep that object rather than a copy (an import's million
 * entities were copied once more at the commit, the copies alive beside the originals); other stores ignore it.
 */
export type BatchOperation =
  | { op: 'insert'; collection: string; doc: Doc; handOver?: boolean }
  | { op: 'replace'; collection: string; filter: Filter; doc: Doc; upsert?: boolean; handOver?: boolean }
  | { op: 'update'; collection: string; filter: Filter; update: Update; upsert?: boolean; multi?: boolean }
  | { op: 'delete'; collection: string; filter: Filter; multi?: boolean };

export interface BatchResult {
  inserted: number;
  matched: number;
  modified: number;
  upserted: number;
  deleted: number;
}

/**
 * Committed writes, as collection names, from every node sharing the store: how caches of stored rules learn at once
 * that another node changed them. An empty name means anything may have changed (notifications were lost).
 */
export interface StoreChanges {
  /** Calls `listener` after each committed write to a collection, whichever node made it; returns the unsubscription. */
  subscribe(listener: (collection: string) => void): () => void;
}

export interface Store {
  /** Present on adapters whose store several nodes share and that can say when a collection changed. */
  readonly changes?: StoreChanges;
  collection<T extends Doc = Doc>(name: string): Collection<T>;
  /**
   * Present on stores that only this process writes (the embedded and memory stores): a number that grows with each
   * committed write to `collection`, synchronously, before any read can see the write. What was read from the
   * collection is still what a read would answer while the number stays put. Absent on stores several nodes share,
   * where another node's write would not move it.
   */
  writeStamp?(collection: string): number;
  /**
   * Present on stores whose reads may see a write before it is durable (the embedded store commits to memory, then
   * to disk on another thread): a promise that settles once every write made so far is durable, or rejects if one of
   * them failed; undefined when none is waiting. What a read answered may be lost in a crash until it settles.
   */
  durable?(): Promise<void> | undefined;
  /**
   * Applies every operation, in order, all or nothing: each operation sees the effects of the previous ones,
   * and either the whole batch is durable when the promise resolves or none of it is applied.
   */
  batch(operations: readonly BatchOperation[]): Promise<BatchResult>;
  listCollections(): Promise<string[]>;
  dropCollection(name: string): Promise<void>;
  /** Cheap round trip proving the store answers. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** What a store adapter package hands the kernel. */
export interface StoreAdapter {
  /** e.g. `sqlite`, `mongodb`, `memory`. */
  readonly name: string;
  readonly store: Store;
  /** Where the scheduler keeps its jobs: usually beside the data (`@vigie/store-jobs` works over any store). */
  readonly jobs: JobStorePort;
}

export interface StoreFactoryContext {
  /** The `[store]` configuration section, as strings. */
  config: Readonly<Record<string, string>>;
  /** Directory for local data files (`<install>/var/lib`). */
  dataDir: string;
  logger: Logger;
}

export type StoreFactory = (context: StoreFactoryContext) => Promise<StoreAdapter>;
