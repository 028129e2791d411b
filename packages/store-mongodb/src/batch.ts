import type { ClientSession, Collection as DriverCollection, Db, Document, MongoClient, UpdateResult } from 'mongodb';
import { ErrorCodes, VigieError, type BatchOperation, type BatchResult } from '@vigie/kernel';
import { checkCollectionName, checkFilter, checkedUpdate, storedDoc } from './documents.js';
import { storeError } from './errors.js';

/** A validated batch operation; consecutive inserts into one collection travel as one ordered insertMany. */
export type Step =
  | { kind: 'insert'; collection: string; docs: Document[] }
  | { kind: 'replace'; collection: string; filter: Document; doc: Document; upsert: boolean }
  | { kind: 'update'; collection: string; filter: Document; update: Document; upsert: boolean; multi: boolean }
  | { kind: 'delete'; collection: string; filter: Document; multi: boolean };

/** Checks every operation before anything is sent, so an invalid one late in a batch costs no write. */
export function prepareBatch(operations: readonly BatchOperation[]): Step[] {
  const steps: Step[] = [];
  for (const operation of operations) {
    const collection = checkCollectionName(operation.collection);
    switch (operation.op) {
      case 'insert': {
        const doc = storedDoc(operation.doc);
        const last = steps[steps.length - 1];
        if (last?.kind === 'insert' && last.collection === collection) last.docs.push(doc);
        else steps.push({ kind: 'insert', collection, docs: [doc] });
        break;
      }
      case 'replace':
        steps.push({ kind: 'replace', collection, filter: checkFilter(operation.filter), doc: storedDoc(operation.doc), upsert: operation.upsert === true });
        break;
      case 'update': {
        const upsert = operation.upsert === true;
        const filter = checkFilter(operation.filter);
        steps.push({ kind: 'update', collection, filter, update: checkedUpdate(operation.update, filter, upsert), upsert, multi: operation.multi === true });
        break;
      }
      case 'delete':
        steps.push({ kind: 'delete', collection, filter: checkFilter(operation.filter), multi: operation.multi === true });
        break;
      default:
        throw new VigieError(ErrorCodes.StoreFailure, `unknown batch operation ${(operation as { op: string }).op}`);
    }
  }
  return steps;
}

function emptyResult(): BatchResult {
  return { inserted: 0, matched: 0, modified: 0, upserted: 0, deleted: 0 };
}

function addUpdate(result: BatchResult, r: UpdateResult): void {
  result.matched += r.matchedCount;
  result.modified += r.modifiedCount;
  result.upserted += r.upsertedCount;
}

/** All steps in one server transaction (replica set or sharded cluster): truly all or nothing. */
export async function runInTransaction(client: MongoClient, db: Db, steps: readonly Step[]): Promise<BatchResult> {
  const session = client.startSession();
  let failedCollection = '';
  try {
    // withTransaction retries the whole callback on transient errors, so the result starts afresh each time;
    // errors are mapped outside it, since the retry decision reads the driver's error labels.
    return await session.withTransaction(async () => {
      const result = emptyResult();
      for (const step of steps) {
        failedCollection = step.collection;
        await applyStep(db.collection(step.collection), step, result, session);
      }
      return result;
    });
  } catch (err) {
    throw storeError(err, failedCollection);
  } finally {
    await session.endSession();
  }
}

async function applyStep(c: DriverCollection, step: Step, result: BatchResult, session: ClientSession): Promise<void> {
  switch (step.kind) {
    case 'insert':
      await c.insertMany(step.docs, { ordered: true, session });
      result.inserted += step.docs.length;
      return;
    case 'replace':
      addUpdate(result, await c.replaceOne(step.filter, step.doc, { upsert: step.upsert, session }));
      return;
    case 'update': {
      const options = { upsert: step.upsert, session };
      addUpdate(result, step.multi ? await c.updateMany(step.filter, step.update, options) : await c.updateOne(step.filter, step.update, options));
      return;
    }
    case 'delete':
      result.deleted += (step.multi ? await c.deleteMany(step.filter, { session }) : await c.deleteOne(step.filter, { session })).deletedCount;
      return;
  }
}

/** What undoes one write: put `before` back, or delete the document when it did not exist. */
interface UndoEntry {
  collection: string;
  id: unknown;
  before: Document | null;
}

/**
 * Without transactions (a standalone server), steps are applied one by one while an undo log records the
 * before-image of every document they touch; on failure the log is replayed in reverse order. This is
 * best-effort: a crash or lost connection in the middle leaves part of the batch applied, and a concurrent
 * writer can interleave with the batch.
 */
export async function runCompensated(db: Db, steps: readonly Step[]): Promise<BatchResult> {
  const undo: UndoEntry[] = [];
  const result = emptyResult();
  for (const step of steps) {
    try {
      await applyCompensated(db.collection(step.collection), step, result, undo);
    } catch (err) {
      const failure = storeError(err, step.collection);
      await rollBack(db, undo, failure);
      throw failure;
    }
  }
  return result;
}

async function applyCompensated(c: DriverCollection, step: Step, result: BatchResult, undo: UndoEntry[]): Promise<void> {
  const collection = step.collection;
  if (step.kind === 'insert') {
    let inserted = step.docs.length;
    try {
      await c.insertMany(step.docs, { ordered: true });
    } catch (err) {
      // Ordered: exactly the documents before the failing one went in. When the count is unknown (a lost
      // connection), nothing is recorded: deleting documents this batch may not have written could destroy others.
      const count = (err as { insertedCount?: unknown }).insertedCount;
      inserted = typeof count === 'number' ? count : 0;
      throw err;
    } finally {
      for (const doc of step.docs.slice(0, inserted)) undo.push({ collection, id: doc._id, before: null });
    }
    result.inserted += inserted;
    return;
  }
  // Read the targets first so the write is pinned to the documents whose before-images are logged.
  const targets = await c.find(step.filter, step.kind !== 'replace' && step.multi ? {} : { limit: 1 }).toArray();
  for (const doc of targets) undo.push({ collection, id: doc._id, before: doc });
  const pinned = { $and: [step.filter, { _id: { $in: targets.map((doc) => doc._id) } }] };
  switch (step.kind) {
    case 'replace':
      if (targets.length > 0) addUpdate(result, await c.replaceOne(pinned, step.doc));
      else if (step.upsert) addUpdate(result, logUpsert(undo, collection, await c.replaceOne(step.filter, step.doc, { upsert: true })));
      return;
    case 'update':
      if (targets.length > 0) addUpdate(result, step.multi ? await c.updateMany(pinned, step.update) : await c.updateOne(pinned, step.update));
      else if (step.upsert) addUpdate(result, logUpsert(undo, collection, await c.updateOne(step.filter, step.update, { upsert: true })));
      return;
    case 'delete':
      if (targets.length > 0) result.deleted += (await c.deleteMany(pinned)).deletedCount;
      return;
  }
}

function logUpsert(undo: UndoEntry[], collection: string, r: UpdateResult): UpdateResult {
  if (r.upsertedId !== null) undo.push({ collection, id: r.upsertedId, before: null });
  return r;
}

/** Replays the undo log newest first, so a document touched twice ends with its oldest before-image. */
async function rollBack(db: Db, undo: readonly UndoEntry[], failure: VigieError): Promise<void> {
  const problems: string[] = [];
  for (const entry of [...undo].reverse()) {
    const c = db.collection(entry.collection);
    const byId: Document = { _id: entry.id };
    try {
      if (entry.before === null) await c.deleteOne(byId);
      else await c.replaceOne(byId, entry.before, { upsert: true });
    } catch (err) {
      problems.push(`${entry.collection}/${String(entry.id)}: ${(err as Error).message}`);
    }
  }
  if (problems.length > 0) {
    throw new VigieError(
      ErrorCodes.StoreFailure,
      `a batch failed (${failure.message}) and undoing it failed for ${problems.length} document(s): the database holds part of the batch`,
      { details: problems, cause: failure },
    );
  }
}
