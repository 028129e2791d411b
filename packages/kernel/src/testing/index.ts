export { startTestKernel, type TestKernel, type TestKernelOptions, type RequestOptions, type TestResponse } from './test-kernel.js';
export { describeStoreConformance, storeConformanceCases, type OpenedStore, type StoreConformanceOptions } from './store-conformance.js';
export { describeJobStoreConformance, type OpenedJobStore } from './job-store-conformance.js';
export { ManualClock } from '../clock.js';
/** The kernel's scheduler over a given job store, for adapters testing their jobs end to end. */
export { AgendaScheduler } from '../scheduler/agenda-scheduler.js';
export { spawnSource, onLines, startSourceServer, repositoryRoot, type SourceServer } from './source-process.js';
export { tcpReachable, describeWithService, freePort } from './services.js';
export { featureStoreOf } from './feature-store.js';
