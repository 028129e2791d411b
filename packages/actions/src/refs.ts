import { serviceRef } from '@vigie/kernel';
import type { ActionService } from './action-service.js';

/** The action rules (CRUD) of the API. */
export const actionServiceRef = serviceRef<ActionService>('actions.service');
