import { documentRepositoryClass, type DocumentRepository, type Doc } from '@vigie/kernel';

/** A pattern object; its grammar is the engine's (REFERENCE §5.1). */
export type Pattern = Record<string, unknown>;

/** When an action fires: one of `triggers`, and every pattern list given (each an OR of patterns). */
export interface ActionHook {
  triggers: string[];
  event_patterns?: Pattern[] | null;
  alarm_patterns?: Pattern[] | null;
  entity_patterns?: Pattern[] | null;
}

/** The fields of an action, the same in the store and in the list route. Optional fields are absent rather than null. */
export interface ActionFields {
  _id: string;
  /** `pbehavior`, `snooze`, `ack`, … */
  type: string;
  hook?: ActionHook;
  parameters?: Record<string, unknown>;
  /** `<number><unit>`, e.g. `1m`. */
  delay?: string;
  priority?: number;
  /** Legacy (non-hook) actions: alarm `v` fields matched against `regex`. */
  fields?: string[];
  regex?: string;
  creation_date: number;
  last_update_date: number;
}

/** An action as stored in `default_action`: the API's field names and value forms, read as is by the engine. */
export interface ActionRecord extends Doc, ActionFields {}

/** The actions in `default_action`, by id. */
export const ActionRepository = documentRepositoryClass<ActionRecord>('default_action', { order: { _id: 1 } });
export type ActionRepository = DocumentRepository<ActionRecord>;
