import { entityTypes } from '@vigie/context-graph';
import { VigieError, errorDetail, type JsonValue } from '@vigie/kernel';
import { inputBounds } from '@vigie/input';
import { assertJsonDepth } from '@vigie/kernel-http';
import { isJsonObject } from '@vigie/json';

/** Code of the errors that fail an import; their message becomes the status record's `info`. */
export const importFailedCode = 'IMPORT_FAILED';

/** Why an import fails (malformed document, an action that cannot apply). */
export class ImportFailure extends VigieError {
  constructor(info: string) {
    super(importFailedCode, info);
    this.name = 'ImportFailure';
  }
}

/** How the request body was encoded: JSON `{"json": {...}}`, or a form with a field `json`. */
export type BodyFormat = 'json' | 'form';

export const ciActions = ['create', 'set', 'update', 'delete', 'enable', 'disable'] as const;
export type CiActionName = (typeof ciActions)[number];

/** A checked element of `cis`; every field but `_id`, `action` and `action_properties` is copied into the entity. */
export type CiElement = Record<string, JsonValue>;

/** Element fields that are not entity fields. */
export const actionFields: ReadonlySet<string> = new Set(['_id', 'action', 'action_properties']);

/**
 * What names an element in failure texts (`cis[3] (_id "x", action create)`). The text is made when first read: an
 * import of a million elements fails at most once, and holding a label per element cost hundreds of megabytes.
 */
abstract class Labelled {
  #label: string | undefined;

  /** The label as the element's position and fields make it. */
  protected abstract describe(): string;

  get label(): string {
    return (this.#label ??= this.describe());
  }

  /** Another wording (a caller that names the element otherwise, such as the entity API). */
  set label(text: string) {
    this.#label = text;
  }
}

abstract class CiEntry extends Labelled {
  constructor(
    readonly id: string,
    readonly index: number,
  ) {
    super();
  }

  abstract readonly action: CiActionName;

  protected describe(): string {
    return `cis[${this.index}] (_id ${quote(this.id)}, action ${this.action})`;
  }
}

/** `create`, `set` or `update`: the element's fields go into the entity. */
class ElementCi extends CiEntry {
  constructor(
    readonly action: 'create' | 'set' | 'update',
    id: string,
    index: number,
    readonly element: CiElement,
  ) {
    super(id, index);
  }
}

class DeleteCi extends CiEntry {
  readonly action = 'delete';
}

class ToggleCi extends CiEntry {
  constructor(
    readonly action: 'enable' | 'disable',
    id: string,
    index: number,
    readonly timestamps: number[],
  ) {
    super(id, index);
  }
}

export type CiAction = ElementCi | DeleteCi | ToggleCi;

export class LinkAction extends Labelled {
  constructor(
    readonly action: 'create' | 'delete',
    /** One link per id (the original sends a list, the spec a string). */
    readonly from: string[],
    readonly to: string,
    readonly index: number,
    /** The element's `_id`, as given (it only names the link in failure texts). */
    readonly linkId: unknown,
  ) {
    super();
  }

  protected describe(): string {
    return `links[${this.index}] (${this.linkId === undefined ? '' : `_id ${quote(this.linkId)}, `}action ${this.action})`;
  }
}

/** A validated import document. */
export interface ImportPlan {
  cis: CiAction[];
  links: LinkAction[];
}

const wrapperShape = '{"json": {"cis": [...], "links": [...]}}';

/** Parses a JSON text, first measuring its depth unless `maxDepth` is null (a text measured already). */
function parseJson(text: string, what: string, maxDepth: number | null): unknown {
  try {
    if (maxDepth !== null) assertJsonDepth(text, maxDepth);
  } catch (err) {
    throw new ImportFailure(`${what} is not valid JSON: ${errorDetail(err)}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new ImportFailure(`${what} is not valid JSON: ${(err as Error).message}`);
  }
}

/** What the original reads when a body has no `json` field. */
const emptyDocument = '{}';

/**
 * The import document inside a request body as it was stored; JSON nested deeper than `maxDepth` fails the import.
 * A JSON body's own text is not measured again: `ImportFiles.write` stored it only once measured as it flowed (a
 * second pass over the text of a million elements took seconds); a JSON text inside its field, or a form's, is.
 */
export function decodeBody(text: string, format: BodyFormat, maxDepth: number): unknown {
  let inner: unknown;
  if (format === 'form') {
    // As in the original, a missing `json` field stands for the empty document `{}`: the import ends done, 0/0.
    inner = new URLSearchParams(text).get('json') ?? emptyDocument;
  } else {
    const body = parseJson(text, 'the request body', null);
    if (!isJsonObject(body)) throw new ImportFailure(`the request body must be a JSON object ${wrapperShape}`);
    inner = 'json' in body ? body.json : emptyDocument;
  }
  // A JSON text in the field, as forms send it (and as the original also accepted in JSON bodies).
  return typeof inner === 'string' ? parseJson(inner, 'the field "json"', maxDepth) : inner;
}

const quote = (value: unknown): string => JSON.stringify(value) ?? String(value);
const typeList = entityTypes.join(', ');

/** The label of the element being checked, made only when a check fails. */
type Label = () => string;

/** Field names the store and entity patterns can address: not empty, no leading `$`, no `.`, not `__proto__`. */
function checkFieldName(key: string, label: Label, where: string): void {
  if (key === '' || key.startsWith('$') || key.includes('.') || key === '__proto__') {
    throw new ImportFailure(`${label()}: ${where}name ${quote(key)} is not allowed (names may not be empty, start with $, contain a dot or be __proto__)`);
  }
}

function checkStringList(value: unknown, label: Label, field: string): string[] {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string' && item !== '' && item.length <= inputBounds.idLength)) {
    throw new ImportFailure(`${label()}: ${field} must be a list of non-empty entity ids of at most ${inputBounds.idLength} characters`);
  }
  return value as string[];
}

function checkIntegerList(value: unknown, label: Label, field: string): void {
  if (!Array.isArray(value) || !value.every((item) => Number.isInteger(item))) throw new ImportFailure(`${label()}: ${field} must be a list of integers`);
}

type FieldCheck = (value: unknown, label: Label, id: string) => void;

/** The model's fields: when an element supplies one, its type is checked. */
const modelFieldChecks: Record<string, FieldCheck> = {
  name: (value, label) => {
    if (typeof value !== 'string') throw new ImportFailure(`${label()}: name must be a string`);
    if (value.length > inputBounds.nameLength) throw new ImportFailure(`${label()}: name must be at most ${inputBounds.nameLength} characters`);
  },
  type: (value, label) => {
    if (typeof value !== 'string' || !(entityTypes as readonly string[]).includes(value)) {
      throw new ImportFailure(`${label()}: type must be one of ${typeList} (got ${quote(value)})`);
    }
  },
  enabled: (value, label) => {
    if (typeof value !== 'boolean') throw new ImportFailure(`${label()}: enabled must be true or false`);
  },
  measurements: (value, label) => {
    if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) throw new ImportFailure(`${label()}: measurements must be a list of strings`);
  },
  infos: (value, label) => {
    if (!isJsonObject(value)) throw new ImportFailure(`${label()}: infos must be an object`);
    for (const key of Object.keys(value)) checkFieldName(key, label, 'infos key ');
  },
  impact: (value, label, id) => {
    if (checkStringList(value, label, 'impact').includes(id)) throw new ImportFailure(`${label()}: an entity cannot impact itself`);
  },
  depends: (value, label, id) => {
    if (checkStringList(value, label, 'depends').includes(id)) throw new ImportFailure(`${label()}: an entity cannot depend on itself`);
  },
  enable_history: (value, label) => checkIntegerList(value, label, 'enable_history'),
  disable_history: (value, label) => checkIntegerList(value, label, 'disable_history'),
  action_properties: (value, label) => {
    if (!isJsonObject(value)) throw new ImportFailure(`${label()}: action_properties must be an object`);
  },
};
// A map, so that element keys such as `constructor` never reach Object.prototype.
const fieldChecks = new Map(Object.entries(modelFieldChecks));

/** `enable`/`disable` timestamps: an integer, a list of integers, or null for none. */
function readTimestamps(element: Record<string, unknown>, action: 'enable' | 'disable', label: Label): number[] {
  const properties = element.action_properties;
  const expected = `an integer timestamp or a list of them`;
  if (!isJsonObject(properties) || !(action in properties)) throw new ImportFailure(`${label()}: action_properties.${action} is required (${expected})`);
  const value = properties[action];
  if (value === null) return [];
  if (Number.isInteger(value)) return [value as number];
  if (Array.isArray(value) && value.every((item) => Number.isInteger(item))) return value as number[];
  throw new ImportFailure(`${label()}: action_properties.${action} must be ${expected} (got ${quote(value)})`);
}

function readCi(element: unknown, index: number): CiAction {
  const at = `cis[${index}]`;
  if (!isJsonObject(element)) throw new ImportFailure(`${at}: an element must be an object`);
  const id = element._id;
  if (typeof id !== 'string' || id === '') throw new ImportFailure(`${at}: _id must be a non-empty string`);
  if (id.length > inputBounds.idLength) throw new ImportFailure(`${at}: _id must be at most ${inputBounds.idLength} characters`);
  const action = element.action;
  if (typeof action !== 'string' || !(ciActions as readonly string[]).includes(action)) {
    const got = action === undefined ? 'missing' : `got ${quote(action)}`;
    throw new ImportFailure(`${at} (_id ${quote(id)}): action must be one of ${ciActions.join(', ')} (${got})`);
  }
  // Made only for a failure (see Labelled).
  const label = () => `${at} (_id ${quote(id)}, action ${action})`;
  for (const field of Object.keys(element)) {
    checkFieldName(field, label, 'field ');
    fieldChecks.get(field)?.(element[field], label, id);
  }
  if ((action === 'create' || action === 'set') && element.type === undefined) {
    throw new ImportFailure(`${label()}: type is required (one of ${typeList})`);
  }
  switch (action as CiActionName) {
    case 'delete':
      return new DeleteCi(id, index);
    case 'enable':
    case 'disable': {
      const toggle = action as 'enable' | 'disable';
      return new ToggleCi(toggle, id, index, readTimestamps(element, toggle, label));
    }
    default:
      return new ElementCi(action as 'create' | 'set' | 'update', id, index, element as CiElement);
  }
}

function readLink(element: unknown, index: number): LinkAction {
  const at = `links[${index}]`;
  if (!isJsonObject(element)) throw new ImportFailure(`${at}: an element must be an object`);
  const action = element.action;
  if (action !== 'create' && action !== 'delete') {
    const prefix = element._id === undefined ? at : `${at} (_id ${quote(element._id)})`;
    if (action === undefined) throw new ImportFailure(`${prefix}: action is required (create or delete)`);
    if (typeof action === 'string' && (ciActions as readonly string[]).includes(action)) {
      throw new ImportFailure(`${prefix}: action ${action} is not supported for links (create or delete)`);
    }
    throw new ImportFailure(`${prefix}: action must be create or delete (got ${quote(action)})`);
  }
  const rawFrom = element.from;
  const from = typeof rawFrom === 'string' && rawFrom !== '' ? [rawFrom] : rawFrom;
  const to = element.to;
  const link = new LinkAction(action, from as string[], to as string, index, element._id);
  if (!Array.isArray(from) || from.length === 0 || !from.every((item) => typeof item === 'string' && item !== '')) {
    throw new ImportFailure(`${link.label}: from must be an entity id or a non-empty list of entity ids`);
  }
  if (typeof to !== 'string' || to === '') throw new ImportFailure(`${link.label}: to must be an entity id`);
  if (from.includes(to)) throw new ImportFailure(`${link.label}: an entity cannot impact itself (${quote(to)} is both from and to)`);
  return link;
}

/** Checks the whole document, element by element, before anything is applied; the first problem fails it. */
export function readDocument(document: unknown): ImportPlan {
  if (!isJsonObject(document)) throw new ImportFailure(`the import document must be an object with the arrays cis and links (expected ${wrapperShape})`);
  const { cis = [], links = [] } = document;
  // The original's texts for a document whose parts are not lists.
  if (!Array.isArray(cis) && !Array.isArray(links)) throw new ImportFailure('CIS and LINKS should be an array.');
  if (!Array.isArray(cis)) throw new ImportFailure('CIS should be an array.');
  if (!Array.isArray(links)) throw new ImportFailure('LINKS should be an array.');
  return { cis: cis.map(readCi), links: links.map(readLink) };
}
