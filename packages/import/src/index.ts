export { importFeature } from './feature.js';
export { importConfigSchema, type ImportConfig } from './config.js';
export { ImportSubmission } from './submission-service.js';
export { processJobName, type ProcessJobData } from './processor.js';
export { importCollection, publicStatus, type ImportRecord, type ImportStatus, type ImportWorker } from './import-repository.js';
export type { BodyFormat } from './import-document.js';
export type { ImportStats } from './apply-plan.js';
export { importStatusChangedEvent, importSubmissionRef } from './refs.js';
