import { serviceRef } from '@vigie/kernel';
import type { AlarmFilterService } from './alarm-filter-service.js';

/** The alarm filter rules (CRUD) of the API. */
export const alarmFilterServiceRef = serviceRef<AlarmFilterService>('alarm-filters.service');
