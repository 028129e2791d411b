import { serviceRef } from '@vigie/kernel';
import type { BroadcastMessageService } from './broadcast-message-service.js';

/** The broadcast messages (CRUD) of the API. */
export const broadcastMessageServiceRef = serviceRef<BroadcastMessageService>('broadcast.messageService');
