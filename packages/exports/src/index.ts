export { exportsFeature } from './feature.js';
export { exportsConfigSchema, type ExportsConfig } from './config.js';
