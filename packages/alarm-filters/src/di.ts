import { defineBridge } from '@vigie/kernel';
import { AlarmFilterRepository } from './alarm-filter-repository.js';
import { AlarmFilterService } from './alarm-filter-service.js';

/** The alarm-filters feature's class graph (tsyringe) and what awilix sees of it. */
export const alarmFiltersBridge = defineBridge({
  singletons: [AlarmFilterRepository, AlarmFilterService],
  exports: { alarmFilterService: AlarmFilterService },
});
