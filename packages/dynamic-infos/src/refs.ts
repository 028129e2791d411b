import { serviceRef } from '@vigie/kernel';
import type { DynamicInfosService } from './dynamic-infos-service.js';

/** The dynamic-infos rules (CRUD) of the API. */
export const dynamicInfosServiceRef = serviceRef<DynamicInfosService>('dynamic-infos.service');
