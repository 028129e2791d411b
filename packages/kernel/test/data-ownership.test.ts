import { afterEach, describe, expect, it } from 'vitest';
import { defineFeature } from '../src/feature.js';
import { kernelRefs } from '../src/kernel-refs.js';
import { memoryStoreFactory } from '@vigie/documents';
import { startTestKernel, type TestKernel } from '@vigie/kernel-testing';
import { compose } from './compose.js';
import { collectionRef } from '../src/refs.js';

const notesCollection = collectionRef('notes');
const elsewhereCollection = collectionRef('elsewhere');
const agendaJobsCollection = collectionRef('agenda_jobs');
const journalCollection = collectionRef('journal');

/** Owns `notes`, indexed by `owner`. */
const notes = defineFeature({ id: 'notes', kernel: '^0.1.0', register: (f) => f.collection(notesCollection, { indexes: [{ keys: { owner: 1 } }] }) });

let t: TestKernel | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

describe('data ownership', () => {
  it('gives a feature its own collections', async () => {
    t = await startTestKernel({ store: memoryStoreFactory(), features: [notes] });
    const store = t.kernel.scope('notes').resolve(kernelRefs.store);
    await store.collection(notesCollection).insertOne({ _id: 'n1', owner: 'ada' });
    expect(await store.collection(notesCollection).find({ owner: 'ada' })).toEqual([{ _id: 'n1', owner: 'ada' }]);
  });

  it('refuses, naming the feature and the collection, a read of a collection the feature does not own', async () => {
    const reader = defineFeature({ id: 'reader', kernel: '^0.1.0', dependsOn: ['notes'], register() {} });
    t = await startTestKernel({ store: memoryStoreFactory(), features: [notes, reader] });
    const store = t.kernel.scope('reader').resolve(kernelRefs.store);
    expect(() => store.collection(notesCollection)).toThrow('feature reader uses collection notes, which it does not own (feature notes does; use its services)');
    expect(() => store.collection(elsewhereCollection)).toThrow('feature reader uses collection elsewhere, which it does not own (declare it with f.collection)');
    await expect(store.batch([{ op: 'insert', collection: 'notes', doc: { _id: 'n2' } }])).rejects.toThrow('feature reader uses collection notes');
  });

  it('fails to boot when a feature reads a collection it did not declare while starting', async () => {
    const careless = defineFeature({
      id: 'careless',
      kernel: '^0.1.0',
      dependsOn: ['notes'],
      register(f) {
        f.onInit(async (scope) => void (await scope.resolve(kernelRefs.store).collection(notesCollection).count()));
      },
    });
    await expect(startTestKernel({ store: memoryStoreFactory(), features: [notes, careless] })).rejects.toThrow(
      'feature careless uses collection notes, which it does not own (feature notes does; use its services)',
    );
  });

  it('fails the boot check when a feature declares another feature’s collection or the kernel’s', () => {
    const squatter = defineFeature({
      id: 'squatter',
      kernel: '^0.1.0',
      register(f) {
        f.collection(notesCollection);
        f.collection(agendaJobsCollection);
      },
    });
    const { details } = compose([notes, squatter]);
    expect(details).toEqual(
      expect.arrayContaining(['feature squatter declares collection agenda_jobs, which the kernel owns', 'collection notes is declared by features notes and squatter']),
    );
    expect(details).toHaveLength(2);
  });

  it('lets an owner vouch for its operations in another feature’s atomic batch', async () => {
    const journal = defineFeature({ id: 'journal', kernel: '^0.1.0', dependsOn: ['notes'], register: (f) => f.collection(journalCollection) });
    t = await startTestKernel({ store: memoryStoreFactory(), features: [notes, journal] });
    const vouched = t.kernel.scope('notes').resolve(kernelRefs.store).vouch([{ op: 'insert', collection: 'notes', doc: { _id: 'n3' } }]);
    await t.kernel.scope('journal').resolve(kernelRefs.store).batch([{ op: 'insert', collection: 'journal', doc: { _id: 'j1' } }, ...vouched]);
    expect(await t.kernel.store.collection('notes').findOne({ _id: 'n3' })).toEqual({ _id: 'n3' });
    expect(() => t?.kernel.scope('journal').resolve(kernelRefs.store).vouch([{ op: 'delete', collection: 'notes', filter: {} }])).toThrow(
      'feature journal uses collection notes, which it does not own',
    );
  });
});
