/**
 * How JSON-like JavaScript values play Go's types. `undefined` is Go's "no value" (a missing map key), `null` is
 * nil, plain objects are `map[string]any`, arrays are slices, and a `Date` is a `time.Time`.
 */

type ValueKind = 'none' | 'nil' | 'string' | 'number' | 'bool' | 'array' | 'time' | 'map' | 'other';

export function kindOf(value: unknown): ValueKind {
  if (value === undefined) return 'none';
  if (value === null) return 'nil';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'bool';
    case 'object':
      if (Array.isArray(value)) return 'array';
      return value instanceof Date ? 'time' : 'map';
    default:
      return 'other';
  }
}

/** The type name used in error messages such as `can't evaluate field X in type string`. */
export function typeName(value: unknown): string {
  const kind = kindOf(value);
  switch (kind) {
    case 'none':
      return 'no value';
    case 'other':
      return typeof value;
    default:
      return kind;
  }
}

/** Go's truth: false, 0, nil, no value and empty strings, arrays and maps are false; everything else is true. */
export function isTruthy(value: unknown): boolean {
  switch (kindOf(value)) {
    case 'none':
    case 'nil':
      return false;
    case 'bool':
      return value as boolean;
    case 'number':
      return value !== 0;
    case 'string':
      return (value as string).length > 0;
    case 'array':
      return (value as unknown[]).length > 0;
    case 'map':
      return Object.keys(value as object).length > 0;
    default:
      return true;
  }
}

/**
 * A map key, looked up among the object's own properties only: `constructor`, `__proto__` or `toString` resolve to
 * no value unless the data really has such a key, so templates never reach a prototype.
 */
export function lookupKey(map: object, key: string): unknown {
  return Object.hasOwn(map, key) ? (map as Record<string, unknown>)[key] : undefined;
}

/** The entries of a map in sorted key order, as Go's range and fmt visit them. */
export function sortedEntries(map: object): [string, unknown][] {
  return Object.keys(map)
    .sort()
    .map((key) => [key, (map as Record<string, unknown>)[key]]);
}

const encoder = new TextEncoder();

/** Go strings are UTF-8 bytes: `len` and `index` on a string count bytes, not characters. */
export function utf8Bytes(text: string): Uint8Array {
  return encoder.encode(text);
}

/** The UTF-8 length of a string without allocating its encoding. */
export function utf8Length(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) length += 1;
    else if (code < 0x800) length += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length += 4;
        i += 1;
      } else {
        length += 3;
      }
    } else length += 3;
  }
  return length;
}
