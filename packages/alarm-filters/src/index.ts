export { alarmFiltersFeature } from './feature.js';
export {
  AlarmFilterService,
  type AlarmFilter,
  type AlarmFilterInput,
  type AlarmFilterUpdateInput,
  type AlarmQueryInput,
} from './alarm-filter-service.js';
export type { AlarmFilterRecord } from './alarm-filter-repository.js';
export { alarmFilterTasks } from './schemas.js';
export { AlarmFilterEngine, type AlarmFilterBeatReport } from './alarm-filter-engine.js';
export { alarmFiltersConfigSchema, type AlarmFiltersConfig } from './config.js';
export { alarmFilterServiceRef } from './refs.js';
