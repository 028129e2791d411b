import { eventRef, serviceRef } from '@vigie/kernel';
import type { ImportStatus } from './import-repository.js';
import type { ImportSubmission } from './submission-service.js';

/** Queues a context-graph import. */
export const importSubmissionRef = serviceRef<ImportSubmission>('import.submission');

/** An import went `ongoing`, `done` or `failed`. Listeners are awaited before processing goes on: keep them short. */
export const importStatusChangedEvent = eventRef<{ importId: string; status: ImportStatus }>('import.status-changed');
