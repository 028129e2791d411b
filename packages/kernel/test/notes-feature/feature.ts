import { object } from 'yup';
import { collectionRef, defineFeature, featureConfig, HttpError, kernelRefs, type Doc } from '@vigie/kernel';
import { durationSeconds, durationSetting, pathParam } from '@vigie/input';

interface Note extends Doc {
  text: string;
  created: number;
}

/** The collection, named once with the type of its documents. */
const notesCollection = collectionRef<Note>('notes');

/** Notes kept in the `notes` collection: one route reads a note, one hourly job deletes the old ones. */
export const notesFeature = defineFeature({
  id: 'notes',
  kernel: '^0.1.0',
  // Section [notes] of etc/webserver.conf; VIGIE_NOTES__RETENTION overrides it. `f.config` is typed by the schema.
  config: featureConfig(object({ retention: durationSetting('retention', '7d') })),
  register(f) {
    // The feature owns `notes`; the kernel creates its index at init.
    f.collection(notesCollection, { indexes: [{ keys: { created: 1 } }] });
    f.route({
      method: 'GET',
      path: '/api/v2/notes/:id',
      // Checked by the kernel before the handler (403 without it); a route without a right fails the boot check.
      right: 'notes:read',
      summary: 'Read a note',
      tags: ['notes'],
      handler: async (ctx) => {
        const id = pathParam(ctx, 'id');
        const note = await ctx.state.scope.resolve(kernelRefs.store).collection(notesCollection).findOne({ _id: id });
        if (!note) throw new HttpError(404, `No note found with ID ${id}`);
        return { _id: note._id, text: note.text, created: note.created };
      },
    });
    f.job({
      name: 'notes.purge',
      every: '1 hour',
      handler: async (run) => {
        const now = run.scope.resolve(kernelRefs.clock).nowSec();
        const cutoff = now - (durationSeconds(f.config.retention) ?? 0);
        const { deletedCount } = await run.scope.resolve(kernelRefs.store).collection(notesCollection).deleteMany({ created: { $lt: cutoff } });
        run.log.info({ deletedCount }, 'old notes deleted');
      },
    });
  },
});
