export { importFeature } from './feature.js';
export { importConfigSchema, type ImportConfig } from './config.js';
export { ImportSubmission } from './submission-service.js';
export { processJobName, leaseMs, type ProcessJobData } from './processor.js';
export { importCollection, importStatuses, publicStatus, type ImportRecord, type ImportStatus, type ImportWorker } from './import-repository.js';
export { ImportFailure, decodeBody, readDocument, type BodyFormat, type CiAction, type ImportPlan, type LinkAction } from './import-document.js';
export { applyPlan, importStats, namedIds, type ImportStats } from './apply-plan.js';
export { asctime, execTime } from './time-format.js';
