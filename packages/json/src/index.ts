export { adoptJson, cloneJson, isJsonObject, jsonEqual } from './json.js';
