import { defineBridge } from '@vigie/kernel';
import { DynamicInfosEngine, DynamicInfosEngineTokens } from './dynamic-infos-engine.js';
import { DynamicInfosRepository } from './dynamic-infos-repository.js';
import { DynamicInfosService } from './dynamic-infos-service.js';

/** The dynamic-infos feature's class graph (tsyringe) and what awilix sees of it. */
export const dynamicInfosBridge = defineBridge({
  imports: {
    alarmChanges: DynamicInfosEngineTokens.AlarmChanges,
    alarmReader: DynamicInfosEngineTokens.AlarmReader,
    entityRepository: DynamicInfosEngineTokens.EntityRepository,
  },
  singletons: [DynamicInfosRepository, DynamicInfosService, DynamicInfosEngine],
  exports: { dynamicInfosService: DynamicInfosService, dynamicInfosEngine: DynamicInfosEngine },
});
