import type { Doc, JsonValue } from '@vigie/kernel';

/** The entity types of the spec. */
export const entityTypes = ['resource', 'component', 'connector', 'watcher'] as const;
export type EntityType = (typeof entityTypes)[number];

/**
 * An entity (configuration item) as stored in `default_entities`. `impact` and `depends` are reciprocal: when
 * A lists B in its `impact`, B lists A in its `depends`. Fields beyond the model (an import copies every field
 * of its elements) are kept as they are.
 */
export interface Entity extends Doc {
  _id: string;
  name: string;
  /** One of `entityTypes` for entities Vigie writes; older stores may hold others. */
  type: string;
  /** Entities this one impacts. */
  impact: string[];
  /** Entities this one depends on. */
  depends: string[];
  enabled: boolean;
  /** Epoch seconds of each enabling, in the order they were recorded. */
  enable_history: number[];
  disable_history: number[];
  /** Metrics linked to the entity. */
  measurements: string[];
  /** Free-form data; entries are usually `{name, description, value}`. */
  infos: Record<string, JsonValue>;
}

const modelFields = new Set(['_id', 'name', 'type', 'enabled', 'impact', 'depends', 'measurements', 'infos', 'enable_history', 'disable_history']);

/**
 * The items of a stored list that have the type, as a list: the document's own list when all have it (taken over, not
 * copied: documents come from the store as the caller's copies, and a draft of a million entities copied every list
 * of each once more).
 */
function listOf<T>(value: unknown, isItem: (item: unknown) => item is T): T[] {
  if (!Array.isArray(value)) return [];
  return value.every(isItem) ? value : value.filter(isItem);
}
const isString = (item: unknown): item is string => typeof item === 'string';
const isNumber = (item: unknown): item is number => typeof item === 'number';
const stringList = (value: unknown): string[] => listOf(value, isString);
const numberList = (value: unknown): number[] => listOf(value, isNumber);

/**
 * A stored document as an entity: fields that documents written by other tools may lack get the model's defaults.
 * The entity takes the document's lists over: the document must be the caller's own copy.
 * The model's fields come first, in the order an import writes them, then the others: made as one literal, not
 * spread from the document (which cost three times as much, and more for a document lacking model fields).
 */
export function toEntity(doc: Doc): Entity {
  const infos = doc.infos;
  const entity: Entity = {
    _id: doc._id,
    name: typeof doc.name === 'string' ? doc.name : doc._id,
    type: typeof doc.type === 'string' ? doc.type : '',
    enabled: typeof doc.enabled === 'boolean' ? doc.enabled : true,
    impact: stringList(doc.impact),
    depends: stringList(doc.depends),
    measurements: stringList(doc.measurements),
    infos: typeof infos === 'object' && infos !== null && !Array.isArray(infos) ? (infos as Record<string, JsonValue>) : {},
    enable_history: numberList(doc.enable_history),
    disable_history: numberList(doc.disable_history),
  };
  for (const key of Object.keys(doc)) {
    if (modelFields.has(key)) continue;
    // Defined, not assigned: a stored `__proto__` field stays a field, as a spread kept it.
    if (key === '__proto__') Object.defineProperty(entity, key, { value: doc[key], enumerable: true, writable: true, configurable: true });
    else entity[key] = doc[key];
  }
  return entity;
}

/** The empty list and object of every entity `toReplacedEntity` makes: frozen, so that a change to them fails loudly. */
const noMeasurements = Object.freeze([]) as unknown as string[];
const noInfos = Object.freeze({}) as Record<string, JsonValue>;

/**
 * A stored entity read for a caller that replaces it whole before reading anything else of it: its relations and
 * histories (what a replacement keeps or undoes), the model's defaults for the rest, with one shared empty list and
 * object (a re-import of a million entities made a million of each for nothing). The document is taken over.
 */
export function toReplacedEntity(doc: Doc): Entity {
  return {
    _id: doc._id,
    name: doc._id,
    type: '',
    enabled: true,
    impact: stringList(doc.impact),
    depends: stringList(doc.depends),
    measurements: noMeasurements,
    infos: noInfos,
    enable_history: numberList(doc.enable_history),
    disable_history: numberList(doc.disable_history),
  };
}

/** Fields an entity carries beyond the model (copied from the import elements that wrote it). */
function extraFields(entity: Entity): Record<string, unknown> {
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entity)) if (!modelFields.has(key)) extra[key] = value;
  return extra;
}

/** What the read routes show: the model's fields, then the fields the entity was imported with beyond them. */
export function publicEntity(entity: Entity): Record<string, unknown> {
  return {
    _id: entity._id,
    name: entity.name,
    type: entity.type,
    enabled: entity.enabled,
    impact: entity.impact,
    depends: entity.depends,
    measurements: entity.measurements,
    infos: entity.infos,
    enable_history: entity.enable_history,
    disable_history: entity.disable_history,
    ...extraFields(entity),
  };
}
