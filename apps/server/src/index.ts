export { createServerKernel, resolveInstallDir, type ServerOptions } from './compose.js';
export { availableFeatures, defaultFeatureIds } from './features.js';
export { availableStores, defaultStore } from './stores.js';
export { runCli, type CliIo } from './cli-main.js';
