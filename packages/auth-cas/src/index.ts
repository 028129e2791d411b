export { authCasFeature } from './feature.js';
export { casConfigSchema, type CasConfig } from './config.js';
export { parseServiceResponse, type TicketCheck } from './cas-client.js';
export type { PublicCasRecord } from './cas-config-repository.js';
