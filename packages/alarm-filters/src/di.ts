import { defineBridge, provide } from '@vigie/kernel';
import { alarmChangesRef, alarmReaderRef, openAlarmPreviewRef } from '@vigie/alarms';
import { activePbehaviorsRef } from '@vigie/pbehaviors';
import { AlarmFilterEngine } from './alarm-filter-engine.js';
import { AlarmFilterRepository } from './alarm-filter-repository.js';
import { AlarmFilterService } from './alarm-filter-service.js';
import { alarmFilterServiceRef } from './refs.js';

/** The alarm-filters feature's class graph (tsyringe); the feature resolves its classes, dependents see its exports. */
export const alarmFiltersBridge = defineBridge({
  imports: [alarmChangesRef, alarmReaderRef, openAlarmPreviewRef, activePbehaviorsRef],
  singletons: [AlarmFilterRepository, AlarmFilterService, AlarmFilterEngine],
  exports: [provide(alarmFilterServiceRef, AlarmFilterService)],
});
