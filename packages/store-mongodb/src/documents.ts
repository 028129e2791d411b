import { randomUUID } from 'node:crypto';
import { BSON, type Document } from 'mongodb';
import { assertNoCodeExecution } from '@vigie/filter-safety';
import { ErrorCodes, VigieError, updateOperators, type Doc, type Filter, type Update } from '@vigie/kernel';
import { cloneJson, isJsonObject } from '@vigie/json';

// What goes to the server is checked here, before anything is sent, with the same rules as the memory engine.

const allowedUpdateOperators = new Set<string>(updateOperators);

function failure(message: string): VigieError {
  return new VigieError(ErrorCodes.StoreFailure, message);
}

/** Same rule as the memory engine, which also keeps MongoDB's reserved names (`system.*`, `$`) out. */
export function checkCollectionName(name: string): string {
  if (!/^[A-Za-z0-9_.-]{1,120}$/.test(name) || name.startsWith('system.')) throw failure(`invalid collection name ${JSON.stringify(name)}`);
  return name;
}

export function checkFilter(filter: Filter): Document {
  if (!isJsonObject(filter)) throw failure('a filter must be an object');
  assertNoCodeExecution(filter);
  return filter;
}

/** A copy of a document that JSON can carry, with the non-empty string `_id` every adapter requires. */
export function storedDoc(doc: Doc): Document {
  if (!isJsonObject(doc)) throw failure('a document must be an object');
  if (typeof doc._id !== 'string' || doc._id === '') throw failure('a document needs a non-empty string _id');
  return cloneJson(doc);
}

/**
 * A checked copy of an update. When it may insert (upsert) and neither the filter nor the update names the
 * `_id`, MongoDB would invent an ObjectId: a random UUID string is set on insert instead, as the memory
 * engine does, so every stored `_id` stays a string.
 */
export function checkedUpdate(update: Update, filter: Filter, upsert: boolean): Document {
  if (!isJsonObject(update)) throw failure('an update must be an object');
  const keys = Object.keys(update);
  if (keys.length === 0) throw failure('an update needs at least one operator');
  for (const key of keys) if (!allowedUpdateOperators.has(key)) throw failure(`update operator ${key} is not supported`);
  const copy = cloneJson(update) as Record<string, Record<string, unknown>>;
  if (upsert && !pinsId(filter) && copy.$set?._id === undefined && copy.$setOnInsert?._id === undefined) {
    copy.$setOnInsert = { ...copy.$setOnInsert, _id: randomUUID() };
  }
  return copy;
}

/** Whether an upsert takes its `_id` from the filter: `{_id: x}`, `{_id: {$eq: x}}`, or either inside `$and`. */
function pinsId(filter: Filter): boolean {
  const id = filter._id;
  if (typeof id === 'string' || (isJsonObject(id) && typeof id.$eq === 'string')) return true;
  return Array.isArray(filter.$and) && filter.$and.some((part) => isJsonObject(part) && pinsId(part));
}

/**
 * A driver document as plain JSON. Vigie only writes JSON, but a database shared with other programs may
 * hold BSON types (ObjectId, Date, Decimal128…): those come back in relaxed Extended JSON (`{"$oid": …}`)
 * rather than as driver classes.
 */
export function plainDoc(doc: Document): Doc {
  return plain(doc) as Doc;
}

function plain(value: unknown): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (Array.isArray(value)) return value.map(plain);
  if (isJsonObject(value) && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(value)) out[key] = plain(member);
    return out;
  }
  return BSON.EJSON.serialize(value, { relaxed: true });
}
