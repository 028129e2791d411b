import { collectionRef, type Doc } from '@vigie/kernel';
import { documentRepositoryClass, type DocumentRepository } from '@vigie/feature-kit';
import type { Action } from './schemas.js';

/** A pattern object; its grammar is the engine's (REFERENCE §5.1). */
export type Pattern = Record<string, unknown>;

/** An action as stored in `default_action`: the API's field names and value forms (`actionSchema`), read as is by the engine. */
export interface ActionRecord extends Doc, Action {}

export const actionCollection = collectionRef<ActionRecord>('default_action');

/** The actions in `default_action`, by id. */
export const ActionRepository = documentRepositoryClass(actionCollection, { order: { _id: 1 } });
export type ActionRepository = DocumentRepository<ActionRecord>;
