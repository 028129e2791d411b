import { defineBridge } from '@vigie/kernel';
import { ImportFiles } from './import-files.js';
import { ImportRepository } from './import-repository.js';
import { ImportProcessor } from './processor.js';
import { ImportSubmission } from './submission-service.js';
import { ImportTokens } from './tokens.js';

/** The import feature's class graph (tsyringe) and what awilix sees of it. */
export const importBridge = defineBridge({
  imports: { entityRepository: ImportTokens.EntityRepository },
  singletons: [ImportFiles, ImportRepository, ImportSubmission, ImportProcessor],
  exports: { importSubmission: ImportSubmission, importProcessor: ImportProcessor, importRepository: ImportRepository },
});
