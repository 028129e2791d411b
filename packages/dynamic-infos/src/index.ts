export { dynamicInfosFeature } from './feature.js';
export type { DynamicInfosRecord } from './dynamic-infos-repository.js';
export type { DynamicInfo, DynamicInfosRule } from './schemas.js';
export { DynamicInfosService, type DynamicInfosOutput } from './dynamic-infos-service.js';
export { infoValueTypes, searchableFields, type InfoValueType } from './schemas.js';
export { DynamicInfosEngine, excludedTemplateFunctions } from './dynamic-infos-engine.js';
export { dynamicInfosServiceRef } from './refs.js';
