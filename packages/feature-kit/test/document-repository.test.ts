import 'reflect-metadata';
import { container } from 'tsyringe';
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '@vigie/documents';
import { featureStoreOf } from '@vigie/kernel-testing';
import { kernelRefs } from '../src/kernel-refs.js';
import { collectionRef, DocumentRepository, ErrorCodes, documentRepositoryClass, hasCode, type Doc } from '../src/index.js';

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
});
