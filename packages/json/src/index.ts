export { adoptJson, cloneJson, isJsonObject, jsonEqual } from './json.js';
export { appendToList, memberSet } from './list-members.js';
