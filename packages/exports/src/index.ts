export { exportsFeature } from './feature.js';
