import { serviceRef } from '@vigie/kernel';
import type { HeartbeatService } from './heartbeat-service.js';

/** The heartbeats (CRUD) of the API. */
export const heartbeatServiceRef = serviceRef<HeartbeatService>('heartbeats.service');
