import { afterEach, describe, expect, it } from 'vitest';
import { memoryStoreFactory } from '@vigie/documents';
import { kernelRefs } from '../src/kernel-refs.js';
import { ManualClock, startTestKernel, type TestKernel } from '@vigie/kernel-testing';
import { notesFeature } from './notes-feature/feature.js';
import { collectionRef } from '../src/refs.js';

const notesCollection = collectionRef('notes');

/** The README's example feature (an excerpt of notes-feature/feature.ts) boots, serves its route and runs its job. */
let t: TestKernel | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

describe('the README’s notes feature', () => {
  it('reads a note, answers 404 for an unknown one, and purges the notes older than the retention', async () => {
    const clock = new ManualClock();
    t = await startTestKernel({ store: memoryStoreFactory(), features: [notesFeature], clock, config: { 'webserver.conf': { notes: { retention: '1d' } } } });
    const notes = t.kernel.scope('notes').resolve(kernelRefs.store).collection(notesCollection);
    const now = clock.nowSec();
    await notes.insertMany([
      { _id: 'old', text: 'stale', created: now - 2 * 86400 },
      { _id: 'new', text: 'fresh', created: now - 60 },
    ]);

    expect((await t.get('/api/v2/notes/new')).body).toEqual({ _id: 'new', text: 'fresh', created: now - 60 });
    const missing = await t.get('/api/v2/notes/none');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ name: '', description: 'No note found with ID none' });

    await t.kernel.scheduler.now('notes.purge', {});
    await expect.poll(async () => (await notes.find({})).map((n) => n._id)).toEqual(['new']);
  });
});
