import { VigieError, ErrorCodes } from '../errors.js';

/**
 * Deep-copies a JSON document and checks it in the same pass: undefined object members are dropped (as
 * JSON.stringify does), anything that JSON cannot carry faithfully (Date, NaN, functions, class instances,
 * undefined inside arrays) is refused so that a document reads back exactly as it was written.
 */
export function cloneJson<T>(value: T, path = ''): T {
  return cloneValue(value, path) as T;
}

function cloneValue(value: unknown, path: string): unknown {
  if (value === null) return null;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw notJson(path, String(value));
      return value;
    case 'object': {
      if (Array.isArray(value)) {
        const out = new Array<unknown>(value.length);
        for (let i = 0; i < value.length; i++) {
          const item: unknown = value[i];
          if (item === undefined) throw notJson(`${path}[${i}]`, 'undefined');
          out[i] = cloneValue(item, `${path}[${i}]`);
        }
        return out;
      }
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) {
        throw notJson(path, (value as object).constructor?.name ?? 'object');
      }
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(value)) {
        const member = (value as Record<string, unknown>)[key];
        if (member === undefined) continue;
        out[key] = cloneValue(member, path ? `${path}.${key}` : key);
      }
      return out;
    }
    default:
      throw notJson(path, typeof value);
  }
}

function notJson(path: string, what: string): VigieError {
  const where = path === '' ? 'document' : `field ${path}`;
  return new VigieError(ErrorCodes.StoreFailure, `${where} holds a non-JSON value (${what})`);
}

/** Structural equality of two JSON values; object key order does not matter. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
    if (!jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}
