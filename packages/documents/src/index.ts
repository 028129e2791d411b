export { projectCopy } from './query-plan.js';
export { DocumentEngine, EngineStore, createMemoryStore, type DocChange, type EnginePersistence, type ResolvedIndexSpec } from './memory.js';
export { memoryStoreFactory } from './memory-adapter.js';
