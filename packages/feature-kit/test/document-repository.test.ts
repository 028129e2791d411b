import 'reflect-metadata';
import { container } from 'tsyringe';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStore, memoryStoreFactory } from '@vigie/documents';
import { featureStoreOf, startTestKernel, type TestKernel } from '@vigie/kernel-testing';
import { collectionRef, defineBridge, defineFeature, ErrorCodes, hasCode, kernelRefs, type Doc } from '@vigie/kernel';
import { DocumentRepository, documentRepositoryClass } from '../src/index.js';

const notesCollection = collectionRef<Note>('notes');

interface Note extends Doc {
  text: string;
  rank: number;
}

const repository = (order?: Record<string, 1 | -1>) => new DocumentRepository(featureStoreOf(createMemoryStore()), notesCollection, order ? { order } : {});

describe('DocumentRepository', () => {
  it('inserts and returns the stored document; a taken id is a DUPLICATE_KEY error', async () => {
    const notes = repository();
    const note = { _id: 'a', text: 'first', rank: 2 };
    expect(await notes.insert(note)).toEqual(note);
    expect(await notes.get('a')).toEqual(note);
    const duplicate = await notes.insert({ ...note, text: 'again' }).catch((err: unknown) => err);
    expect(hasCode(duplicate, ErrorCodes.DuplicateKey)).toBe(true);
    expect(await notes.get('a')).toEqual(note);
  });

  it('replaces an existing document and returns it; an unknown id gives null and creates nothing', async () => {
    const notes = repository();
    await notes.insert({ _id: 'a', text: 'first', rank: 1 });
    expect(await notes.replace({ _id: 'a', text: 'changed', rank: 1 })).toEqual({ _id: 'a', text: 'changed', rank: 1 });
    expect(await notes.replace({ _id: 'b', text: 'nowhere', rank: 1 })).toBeNull();
    expect(await notes.get('b')).toBeNull();
  });

  it('deletes: true when a document went, false when there was none', async () => {
    const notes = repository();
    await notes.insert({ _id: 'a', text: 'first', rank: 1 });
    expect(await notes.delete('a')).toBe(true);
    expect(await notes.delete('a')).toBe(false);
    expect(await notes.get('a')).toBeNull();
  });

  it('lists in the given order, and counts the writes it made', async () => {
    const notes = repository({ rank: 1, _id: 1 });
    await notes.insert({ _id: 'b', text: 'two', rank: 2 });
    await notes.insert({ _id: 'a', text: 'one', rank: 1 });
    await notes.insert({ _id: 'c', text: 'also one', rank: 1 });
    expect((await notes.list()).map((note) => note._id)).toEqual(['a', 'c', 'b']);
    await notes.delete('c');
    expect(notes.writes).toBe(4);
  });

  it('documentRepositoryClass makes an injectable repository of a collection, built with the store of its container', async () => {
    const store = createMemoryStore();
    await store.collection(notesCollection.name).insertOne({ _id: 'a', text: 'stored', rank: 1 });
    const NoteRepository = documentRepositoryClass(notesCollection);
    const child = container.createChildContainer();
    child.register(kernelRefs.store.id, { useValue: featureStoreOf(store) });
    expect(await child.resolve(NoteRepository).get('a')).toEqual({ _id: 'a', text: 'stored', rank: 1 });
  });

  describe('in a composition', () => {
    let t: TestKernel | undefined;
    afterEach(async () => {
      await t?.stop();
      t = undefined;
    });

    it('gives a generic repository the store of its feature: its own collection works, another is refused', async () => {
      const plainNotes = collectionRef('notes');
      const NoteRepository = documentRepositoryClass(plainNotes);
      const owner = defineFeature({
        id: 'notes',
        kernel: '^0.1.0',
        register(f) {
          f.use(defineBridge({ singletons: [NoteRepository] }));
          f.collection(plainNotes);
        },
      });
      const PeekRepository = documentRepositoryClass(plainNotes);
      const peeker = defineFeature({ id: 'peeker', kernel: '^0.1.0', dependsOn: ['notes'], register: (f) => f.use(defineBridge({ singletons: [PeekRepository] })) });
      t = await startTestKernel({ store: memoryStoreFactory(), features: [owner, peeker] });
      const repository = t.kernel.scope('notes').resolve(NoteRepository);
      expect(await repository.insert({ _id: 'n1' })).toEqual({ _id: 'n1' });
      expect(await repository.list()).toEqual([{ _id: 'n1' }]);
      expect(() => t?.kernel.scope('peeker').resolve(PeekRepository)).toThrow(
        'feature peeker uses collection notes, which it does not own (feature notes does; use its services)',
      );
    });
  });
});
