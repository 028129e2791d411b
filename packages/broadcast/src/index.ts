export { broadcastFeature } from './feature.js';
export { BroadcastMessageService, type BroadcastMessage, type BroadcastMessageInput } from './broadcast-message-service.js';
export type { BroadcastMessageRecord } from './broadcast-message-repository.js';
export { hexColourPattern } from './schemas.js';
export { broadcastMessageServiceRef } from './refs.js';
