import { defineBridge, provide } from '@vigie/kernel';
import { entityRepositoryRef } from '@vigie/context-graph';
import { EntityAdministration } from './entity-administration.js';
import { ImportFiles } from './import-files.js';
import { ImportRepository } from './import-repository.js';
import { ImportProcessor } from './processor.js';
import { importSubmissionRef } from './refs.js';
import { ImportSubmission } from './submission-service.js';

/** The import feature's class graph (tsyringe); the feature resolves its classes, dependents see its exports. */
export const importBridge = defineBridge({
  imports: [entityRepositoryRef],
  singletons: [ImportFiles, ImportRepository, ImportSubmission, ImportProcessor, EntityAdministration],
  exports: [provide(importSubmissionRef, ImportSubmission)],
});
