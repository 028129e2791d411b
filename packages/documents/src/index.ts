export { DocumentEngine, EngineStore, ChangeSet, createMemoryStore, type DocChange, type EnginePersistence, type ResolvedIndexSpec } from './memory.js';
export { memoryStoreFactory } from './memory-adapter.js';
