export { contextGraphFeature } from './feature.js';
export { entityTypes, toEntity, publicEntity, type Entity, type EntityType } from './entity.js';
export { EntityRepository, entityCollection, type EntityQuery } from './entity-repository.js';
export { GraphDraft, type GraphChanges, type DanglingRelation, type RelationField } from './graph-draft.js';
export { EventEntities } from './event-entities.js';
export { EntityReader, type PreviewEntity } from './entity-reader.js';
export { EntityInfosSearch } from './entity-infos-search.js';
export { entitiesChangedEvent, entityInfosSearchRef, entityReaderRef, entityRepositoryRef, eventEntitiesRef } from './refs.js';
