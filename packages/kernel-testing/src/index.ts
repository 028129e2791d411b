export { startTestKernel, type TestKernel, type TestKernelOptions, type RequestOptions, type TestResponse } from './test-kernel.js';
export { describeStoreConformance, storeConformanceCases, type OpenedStore, type StoreConformanceOptions } from './store-conformance.js';
export { describeJobStoreConformance, type OpenedJobStore } from './job-store-conformance.js';
export { featureStoreOf } from './feature-store.js';
export { StaticBasicAuthenticator } from './basic-authenticator.js';
export { spawnSource, onLines, startSourceServer, repositoryRoot, type SourceServer } from './source-process.js';
export { tcpReachable, describeWithService, freePort } from './services.js';
export { changeHeard } from './store-changes.js';
/** Tests inject time with the kernel's `ManualClock`; exported here too, beside the other test helpers. */
export { ManualClock } from '@vigie/kernel';
