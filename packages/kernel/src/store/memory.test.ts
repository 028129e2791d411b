import { createMemoryStore } from './memory.js';
import { describeStoreConformance } from '../testing/store-conformance.js';

describeStoreConformance('memory', async () => ({ store: createMemoryStore() }));
