export { alarmFiltersFeature } from './feature.js';
export { AlarmFilterService } from './alarm-filter-service.js';
export type { AlarmFilter, AlarmFilterInput, AlarmFilterUpdateInput, AlarmQueryInput } from './schemas.js';
export type { AlarmFilterRecord } from './alarm-filter-repository.js';
export { alarmFilterTasks } from './schemas.js';
export { AlarmFilterEngine, type AlarmFilterBeatReport } from './alarm-filter-engine.js';
export { alarmFiltersConfigSchema, type AlarmFiltersConfig } from './config.js';
export { alarmFilterServiceRef } from './refs.js';
