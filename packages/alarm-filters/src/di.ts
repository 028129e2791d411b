import { defineBridge } from '@vigie/kernel';
import { AlarmFilterEngine, AlarmFilterEngineTokens } from './alarm-filter-engine.js';
import { AlarmFilterRepository } from './alarm-filter-repository.js';
import { AlarmFilterService } from './alarm-filter-service.js';

/** The alarm-filters feature's class graph (tsyringe) and what awilix sees of it. */
export const alarmFiltersBridge = defineBridge({
  imports: {
    alarmChanges: AlarmFilterEngineTokens.AlarmChanges,
    alarmReader: AlarmFilterEngineTokens.AlarmReader,
    activePbehaviors: AlarmFilterEngineTokens.ActivePbehaviors,
  },
  singletons: [AlarmFilterRepository, AlarmFilterService, AlarmFilterEngine],
  exports: { alarmFilterService: AlarmFilterService, alarmFilterEngine: AlarmFilterEngine },
});
