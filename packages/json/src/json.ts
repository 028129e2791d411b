import { VigieError, ErrorCodes } from '@vigie/kernel';

/**
 * How deep a stored document may nest. Request bodies are bounded far lower (`[server] json_max_depth`, at most
 * 512); this bound keeps the recursive copy below safe whatever a caller hands the store.
 */
export const maxStoredDepth = 1000;

/**
 * Deep-copies a JSON document and checks it in the same pass: undefined object members are dropped (as
 * JSON.stringify does), anything that JSON cannot carry faithfully (Date, NaN, functions, class instances,
 * undefined inside arrays) is refused so that a document reads back exactly as it was written, and so is a
 * document nested deeper than `maxStoredDepth`.
 */
export function cloneJson<T>(value: T, path = ''): T {
  return cloneValue(value, new Trail(path), 0, true) as T;
}

/**
 * Checks a JSON document as `cloneJson` does, without copying it: for a document handed over to a store that keeps
 * it (`BatchOperation.handOver`), whose caller no longer holds it. Undefined object members are deleted in place.
 */
export function adoptJson<T>(value: T): T {
  return cloneValue(value, new Trail(''), 0, false) as T;
}

/** Where the copy is: the path text is only built for an error message, not for every member copied. */
class Trail {
  readonly #base: string;
  readonly #parts: (string | number)[] = [];

  constructor(base: string) {
    this.#base = base;
  }

  push(part: string | number): void {
    this.#parts.push(part);
  }

  pop(): void {
    this.#parts.pop();
  }

  /** `a.b[2].c`, as the messages name fields. */
  text(): string {
    let path = this.#base;
    for (const part of this.#parts) path = typeof part === 'number' ? `${path}[${part}]` : path ? `${path}.${part}` : part;
    return path;
  }
}

/** Checks `value` and returns its copy, or (`copy` false) itself. */
function cloneValue(value: unknown, trail: Trail, depth: number, copy: boolean): unknown {
  if (value === null) return null;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw notJson(trail.text(), String(value));
      return value;
    case 'object': {
      if (depth >= maxStoredDepth) {
        const path = trail.text();
        throw new VigieError(ErrorCodes.StoreFailure, `${path === '' ? 'the document' : `field ${path}`} is nested deeper than ${maxStoredDepth} levels`);
      }
      if (Array.isArray(value)) {
        const out = copy ? new Array<unknown>(value.length) : value;
        for (let i = 0; i < value.length; i++) {
          const item: unknown = value[i];
          trail.push(i);
          if (item === undefined) throw notJson(trail.text(), 'undefined');
          const checked = cloneValue(item, trail, depth + 1, copy);
          if (copy) out[i] = checked;
          trail.pop();
        }
        return out;
      }
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) {
        throw notJson(trail.text(), (value as object).constructor?.name ?? 'object');
      }
      const source = value as Record<string, unknown>;
      const out: Record<string, unknown> = copy ? {} : source;
      for (const key of Object.keys(source)) {
        const member = source[key];
        if (member === undefined) {
          if (!copy) delete source[key];
          continue;
        }
        trail.push(key);
        const checked = cloneValue(member, trail, depth + 1, copy);
        if (copy) out[key] = checked;
        trail.pop();
      }
      return out;
    }
    default:
      throw notJson(trail.text(), typeof value);
  }
}

function notJson(path: string, what: string): VigieError {
  const where = path === '' ? 'document' : `field ${path}`;
  return new VigieError(ErrorCodes.StoreFailure, `${where} holds a non-JSON value (${what})`);
}

/** Whether a value is a JSON object: not null and not an array (its prototype is not checked). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Depth below which `jsonEqual` recurses (fast, no allocation); deeper parts are compared iteratively. */
const recursiveDepth = 64;

/** Structural equality of two JSON values; object key order does not matter. Any depth is safe. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  return equalAt(a, b, 0);
}

function equalAt(x: unknown, y: unknown, depth: number): boolean {
  if (x === y) return true;
  if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
  if (depth >= recursiveDepth) return equalIteratively(x, y);
  if (Array.isArray(x)) {
    if (!Array.isArray(y) || x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!equalAt(x[i], y[i], depth + 1)) return false;
    return true;
  }
  if (Array.isArray(y)) return false;
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  for (const key of keys) {
    if (!Object.prototype.hasOwnProperty.call(y, key)) return false;
    if (!equalAt((x as Record<string, unknown>)[key], (y as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
}

function equalIteratively(a: unknown, b: unknown): boolean {
  const pending: [unknown, unknown][] = [[a, b]];
  for (let pair = pending.pop(); pair; pair = pending.pop()) {
    const [x, y] = pair;
    if (x === y) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
    if (Array.isArray(x)) {
      if (!Array.isArray(y) || x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) pending.push([x[i], y[i]]);
      continue;
    }
    if (Array.isArray(y)) return false;
    const kx = Object.keys(x);
    if (kx.length !== Object.keys(y).length) return false;
    for (const k of kx) {
      if (!Object.prototype.hasOwnProperty.call(y, k)) return false;
      pending.push([(x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k]]);
    }
  }
  return true;
}
