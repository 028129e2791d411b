import { defineBridge, provide } from '@vigie/kernel';
import { alarmChangesRef, alarmReaderRef, openAlarmPreviewRef } from '@vigie/alarms';
import { entityRepositoryRef } from '@vigie/context-graph';
import { DynamicInfosEngine } from './dynamic-infos-engine.js';
import { DynamicInfosRepository } from './dynamic-infos-repository.js';
import { DynamicInfosService } from './dynamic-infos-service.js';
import { dynamicInfosServiceRef } from './refs.js';

/** The dynamic-infos feature's class graph (tsyringe); the feature resolves its classes, dependents see its exports. */
export const dynamicInfosBridge = defineBridge({
  imports: [alarmChangesRef, alarmReaderRef, openAlarmPreviewRef, entityRepositoryRef],
  singletons: [DynamicInfosRepository, DynamicInfosService, DynamicInfosEngine],
  exports: [provide(dynamicInfosServiceRef, DynamicInfosService)],
});
