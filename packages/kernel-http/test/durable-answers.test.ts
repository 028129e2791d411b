// An answer never shows a write the store has not made durable: the embedded store's reads see a commit in memory
// before its writer thread has it on disk, and a client shown such a write (a delivery attempt a job recorded) must
// not lose it to a crash right after.
import { afterEach, describe, expect, it } from 'vitest';
import { collectionRef, defineFeature, kernelRefs, type StoreFactory } from '@vigie/kernel';
import { DocumentEngine, EngineStore, memoryStoreFactory, type EnginePersistence } from '@vigie/documents';
import { startTestKernel, type TestKernel } from '@vigie/kernel-testing';

/** A persistence whose writes stay pending while it holds them, as the SQLite writer's do until their commit. */
class HeldPersistence implements EnginePersistence {
  holding = false;
  /** Set when the held writes were made durable. */
  released = false;
  readonly #held: { resolve(): void; reject(err: Error): void }[] = [];

  writeChanges(): Promise<void> | undefined {
    if (!this.holding) return undefined;
    return new Promise((resolve, reject) => this.#held.push({ resolve, reject }));
  }

  writeIndex(): void {}
  dropCollection(): void {}

  release(): void {
    this.released = true;
    for (const write of this.#held.splice(0)) write.resolve();
  }

  fail(): void {
    for (const write of this.#held.splice(0)) write.reject(new Error('disk full'));
  }
}

const notes = collectionRef('notes');
const notesFeature = defineFeature({
  id: 'notes',
  kernel: '^0.1.0',
  register(f) {
    f.collection(notes);
    f.route({
      method: 'GET',
      right: 'notes:read',
      path: '/api/v2/notes',
      handler: (ctx) => ctx.state.scope.resolve(kernelRefs.store).collection(notes).find(),
    });
  },
});

function heldStore(persistence: HeldPersistence): { factory: StoreFactory; store: EngineStore } {
  const store = new EngineStore(new DocumentEngine(persistence));
  const factory: StoreFactory = async (context) => ({ name: 'held', store, jobs: (await memoryStoreFactory()(context)).jobs });
  return { factory, store };
}

let t: TestKernel | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

describe('answers wait for the writes they may show', () => {
  it('answers a read of a write made elsewhere once that write is durable', async () => {
    const persistence = new HeldPersistence();
    const { factory, store } = heldStore(persistence);
    t = await startTestKernel({ store: factory, features: [notesFeature] });
    persistence.holding = true;
    // A job's write, nobody waiting for it: the read below sees it in memory at once.
    const jobWrite = store.collection('notes').insertOne({ _id: 'attempt-1' });
    // Released a while after the read is sent: an answer that did not wait for it arrives before.
    setTimeout(() => persistence.release(), 200);
    const answer = await t.get('/api/v2/notes');
    expect(persistence.released).toBe(true);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([{ _id: 'attempt-1' }]);
    await jobWrite;
  });

  it('answers with the store failure when a write it may show failed', async () => {
    const persistence = new HeldPersistence();
    const { factory, store } = heldStore(persistence);
    t = await startTestKernel({ store: factory, features: [notesFeature] });
    persistence.holding = true;
    // Its rejection is expected now: it comes while the read is in flight.
    const jobFailed = expect(store.collection('notes').insertOne({ _id: 'attempt-1' })).rejects.toThrow('disk full');
    setTimeout(() => persistence.fail(), 200);
    const answer = await t.get('/api/v2/notes');
    expect(answer.status).toBe(500);
    await jobFailed;
  });
});
