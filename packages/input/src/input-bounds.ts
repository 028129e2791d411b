import { ErrorCodes, maxJsonDepth, VigieError } from '@vigie/kernel';

/**
 * How large each kind of field a client sends may be (docs/configuration.md, "Input bounds"). Schemas apply the
 * per-kind bounds through the helpers below; `validate` applies the last three to every value it checks, so no
 * field, declared or not, takes more.
 */
export const inputBounds = {
  /** `_id`, ids in paths and other identifiers: 255 characters (the original lost events over 255 bytes). */
  idLength: 255,
  /** Names, authors, types, colours, durations, URLs and other short labels: 1 KiB. */
  nameLength: 1024,
  /** Descriptions, messages, outputs, reasons and other free text: 4 KiB. */
  textLength: 4096,
  /** Templates, payloads, filters sent as text: 64 KiB; also the bound on any string anywhere in a checked value. */
  longTextLength: 65536,
  /** Patterns in one pattern list (`alarm_patterns`, `entity_patterns`, `event_patterns`…). */
  patternCount: 100,
  /** Elements of a rule's other lists (actions, tasks, infos, triggers, comments, exdate…). */
  listLength: 1000,
  /** Elements of any list anywhere in a checked value (a filter's `$in` list may be long). */
  anyListLength: 10000,
  /** Keys of any object anywhere in a checked value (infos, headers, external data…). */
  objectKeys: 1000,
  /**
   * Nesting of a checked value: the highest `[server] json_max_depth` the kernel's configuration allows, so that a
   * value decoded from JSON text inside a field (which the body parser does not see into) cannot reach a recursive
   * walk deeper either.
   */
  depth: maxJsonDepth,
} as const;

/** The message of a string bound, `${path}` and `${max}` filled in by yup. */
export const tooLongMessage = '${path} must be at most ${max} characters';
/** The message of a list bound. */
export const tooManyMessage = '${path} must have at most ${max} elements';

/** What the helpers need of a yup schema: strings and arrays both have `max(limit, message)`. */
interface Maxable<S> {
  max(limit: number, message?: string): S;
}

/** An identifier (`_id`, a referenced id): at most 255 characters. */
export function idField<S extends Maxable<S>>(schema: S, message: string = tooLongMessage): S {
  return schema.max(inputBounds.idLength, message);
}

/** A name or short label: at most 1 KiB. */
export function nameField<S extends Maxable<S>>(schema: S, message: string = tooLongMessage): S {
  return schema.max(inputBounds.nameLength, message);
}

/** Free text (description, message, output): at most 4 KiB. */
export function textField<S extends Maxable<S>>(schema: S, message: string = tooLongMessage): S {
  return schema.max(inputBounds.textLength, message);
}

/** A template, payload or serialised filter: at most 64 KiB. */
export function longTextField<S extends Maxable<S>>(schema: S, message: string = tooLongMessage): S {
  return schema.max(inputBounds.longTextLength, message);
}

/** A list of a rule (actions, tasks, infos…): at most 1000 elements, or `max`. */
export function listField<S extends Maxable<S>>(schema: S, max: number = inputBounds.listLength, message: string = tooManyMessage): S {
  return schema.max(max, message);
}

/**
 * Refuses a value holding, at any depth, a string longer than `longTextLength` or not valid Unicode, a list longer than
 * `anyListLength` or an object with more than `objectKeys` keys, or nested deeper than `depth`, as a `VALIDATION`
 * error naming where. Iterative, so any depth is safe; `validate` calls it before the schema sees the value.
 */
export function assertWithinInputBounds(value: unknown): void {
  // Paths are only spelled out for the error: most values pass.
  interface Pending {
    value: unknown;
    parent: Pending | null;
    key: string | number;
    depth: number;
  }
  const pathOf = (entry: Pending): string => {
    const keys: (string | number)[] = [];
    for (let e: Pending | null = entry; e?.parent; e = e.parent) keys.unshift(e.key);
    const path = keys.map((key, i) => (typeof key === 'number' ? `[${key}]` : i === 0 ? key : `.${key}`)).join('');
    return path === '' ? 'the value' : path;
  };
  const pending: Pending[] = [{ value, parent: null, key: '', depth: 0 }];
  while (pending.length > 0) {
    const entry = pending.pop() as Pending;
    const current = entry.value;
    if (typeof current === 'string') {
      if (current.length > inputBounds.longTextLength) throw outOfBounds(`${pathOf(entry)} must be at most ${inputBounds.longTextLength} characters`);
      if (loneSurrogate.test(current)) throw outOfBounds(`${pathOf(entry)} must be valid Unicode text (it holds a lone surrogate)`);
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    if (entry.depth >= inputBounds.depth) throw outOfBounds(`${pathOf(entry)} is nested deeper than ${inputBounds.depth} levels`);
    if (Array.isArray(current)) {
      if (current.length > inputBounds.anyListLength) throw outOfBounds(`${pathOf(entry)} must have at most ${inputBounds.anyListLength} elements`);
      for (let i = 0; i < current.length; i++) pending.push({ value: current[i], parent: entry, key: i, depth: entry.depth + 1 });
    } else {
      const keys = Object.keys(current);
      if (keys.length > inputBounds.objectKeys) throw outOfBounds(`${pathOf(entry)} must have at most ${inputBounds.objectKeys} keys`);
      for (const key of keys) {
        if (key.length > inputBounds.longTextLength) throw outOfBounds(`a key of ${pathOf(entry)} must be at most ${inputBounds.longTextLength} characters`);
        if (loneSurrogate.test(key)) throw outOfBounds(`a key of ${pathOf(entry)} must be valid Unicode text (it holds a lone surrogate)`);
        pending.push({ value: (current as Record<string, unknown>)[key], parent: entry, key, depth: entry.depth + 1 });
      }
    }
  }
}

/**
 * Half of a UTF-16 surrogate pair without its other half: JSON can carry it (`"\ud800"`), UTF-8 cannot, so no store
 * or connector could keep it faithfully (the original only took UTF-8).
 */
const loneSurrogate = /[\uD800-\uDFFF]/u;

function outOfBounds(detail: string): VigieError {
  return new VigieError(ErrorCodes.Validation, detail, { detail, details: [detail] });
}
