export { consoleFeature } from './feature.js';
export { consoleExtensionsPoint, type ConsoleExtension, type ConsolePage, type ConsoleAlarmExtra } from './refs.js';
export { consolePaths } from './routes.js';
