import { describe, expect, it } from 'vitest';
import { DocumentEngine, EngineStore, type DocChange, type EnginePersistence } from './memory.js';

/** A persistence that answers each write when the test says so, as one on another thread would. */
class DeferredPersistence implements EnginePersistence {
  readonly written: DocChange[][] = [];
  readonly #answers: { resolve(): void; reject(err: Error): void }[] = [];

  writeChanges(changes: readonly DocChange[]): Promise<void> {
    this.written.push([...changes]);
    return new Promise<void>((resolve, reject) => this.#answers.push({ resolve, reject }));
  }

  writeIndex(): Promise<void> {
    return Promise.resolve();
  }

  dropCollection(): Promise<void> {
    return Promise.resolve();
  }

  answer(failure?: Error): void {
    const next = this.#answers.shift();
    if (failure) next?.reject(failure);
    else next?.resolve();
  }
}

const settled = async (promise: Promise<unknown>): Promise<'pending' | 'resolved' | 'rejected'> => {
  let state: 'pending' | 'resolved' | 'rejected' = 'pending';
  promise.then(
    () => (state = 'resolved'),
    () => (state = 'rejected'),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return state;
};

describe('asynchronous persistence', () => {
  it('resolves a write only once the persistence has made it durable, in commit order', async () => {
    const persistence = new DeferredPersistence();
    const store = new EngineStore(new DocumentEngine(persistence));
    const items = store.collection('items');
    const first = items.insertOne({ _id: 'a', n: 1 });
    const second = items.updateOne({ _id: 'a' }, { $set: { n: 2 } });
    expect(await settled(first)).toBe('pending');
    // Memory already holds both changes: later operations build on them.
    expect(await items.findOne({ _id: 'a' })).toEqual({ _id: 'a', n: 2 });
    expect(persistence.written.map((changes) => changes.map((c) => c.after))).toEqual([[{ _id: 'a', n: 1 }], [{ _id: 'a', n: 2 }]]);
    persistence.answer();
    expect(await settled(first)).toBe('resolved');
    expect(await settled(second)).toBe('pending');
    persistence.answer();
    await expect(second).resolves.toMatchObject({ matchedCount: 1, modifiedCount: 1 });
  });

  it('stops the store when a write fails later: that write and every later operation fail', async () => {
    const persistence = new DeferredPersistence();
    const store = new EngineStore(new DocumentEngine(persistence));
    const items = store.collection('items');
    const write = store.batch([{ op: 'insert', collection: 'items', doc: { _id: 'a' } }]);
    persistence.answer(new Error('disk I/O error'));
    await expect(write).rejects.toMatchObject({ code: 'STORE_FAILURE', message: expect.stringMatching(/stopped after a failed write: disk I\/O error/) });
    await expect(items.findOne({ _id: 'a' })).rejects.toMatchObject({ code: 'STORE_FAILURE' });
    await expect(items.insertOne({ _id: 'b' })).rejects.toMatchObject({ code: 'STORE_FAILURE' });
    await expect(store.ping()).rejects.toMatchObject({ code: 'STORE_FAILURE' });
  });

  it('leaves memory unchanged when the persistence refuses a write at once', async () => {
    const engine = new DocumentEngine({
      writeChanges: () => {
        throw new Error('cannot copy');
      },
      writeIndex: () => undefined,
      dropCollection: () => undefined,
    });
    const store = new EngineStore(engine);
    await expect(store.collection('items').insertOne({ _id: 'a' })).rejects.toThrow('cannot copy');
    expect(await store.collection('items').count()).toBe(0);
    await expect(store.ping()).resolves.toBeUndefined();
  });
});
