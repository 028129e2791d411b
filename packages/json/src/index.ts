export { cloneJson, isJsonObject, jsonEqual } from './json.js';
