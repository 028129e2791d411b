import { defineBridge } from '@vigie/kernel';
import { DynamicInfosRepository } from './dynamic-infos-repository.js';
import { DynamicInfosService } from './dynamic-infos-service.js';

/** The dynamic-infos feature's class graph (tsyringe) and what awilix sees of it. */
export const dynamicInfosBridge = defineBridge({
  singletons: [DynamicInfosRepository, DynamicInfosService],
  exports: { dynamicInfosService: DynamicInfosService },
});
