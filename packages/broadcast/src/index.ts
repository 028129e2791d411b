export { broadcastFeature } from './feature.js';
export { BroadcastMessageService } from './broadcast-message-service.js';
export type { BroadcastMessage, BroadcastMessageInput } from './schemas.js';
export type { BroadcastMessageRecord } from './broadcast-message-repository.js';
export { hexColourPattern } from './schemas.js';
export { broadcastMessageServiceRef } from './refs.js';
