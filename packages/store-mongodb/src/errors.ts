import { DuplicateKeyError, ErrorCodes, VigieError, hasCode } from '@vigie/kernel';

const duplicateKeyCodes = new Set<unknown>([11000, 11001]);
const kernelCodes: readonly string[] = [ErrorCodes.DuplicateKey, ErrorCodes.StoreFailure, ErrorCodes.UnsafeFilter];

interface DriverErrorShape {
  code?: unknown;
  message?: unknown;
  errmsg?: unknown;
  keyValue?: unknown;
  writeErrors?: unknown;
  err?: unknown;
}

/**
 * Turns whatever the driver throws into a kernel error: callers map errors by `code`, and a duplicate key
 * reads like the other adapters' (`E11000 duplicate key error collection: <name> index: <index> dup key: {…}`).
 */
export function storeError(err: unknown, collection: string): VigieError {
  if (kernelCodes.some((code) => hasCode(err, code))) return err as VigieError;
  const duplicate = findDuplicate(err);
  if (duplicate) return new DuplicateKeyError(collection, duplicateKey(duplicate), duplicateIndex(duplicate));
  const message = err instanceof Error ? err.message : String(err);
  return new VigieError(ErrorCodes.StoreFailure, `mongodb: ${message}`, { cause: err });
}

/** The E11000 error itself: the thrown error, or one of a bulk write's write errors (raw under `err`). */
function findDuplicate(err: unknown): DriverErrorShape | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const shape = err as DriverErrorShape;
  // A bulk write error holds one WriteError or an array of them; a transaction may rethrow either form.
  const writeErrors = shape.writeErrors === undefined ? [] : [shape.writeErrors].flat();
  const candidates = [shape, ...writeErrors.map((w) => ((w as DriverErrorShape)?.err ?? w) as DriverErrorShape)];
  return candidates.find((c) => typeof c === 'object' && c !== null && duplicateKeyCodes.has(c.code));
}

function messageOf(shape: DriverErrorShape): string {
  if (typeof shape.errmsg === 'string') return shape.errmsg;
  return typeof shape.message === 'string' ? shape.message : '';
}

function duplicateIndex(shape: DriverErrorShape): string {
  return /index: (\S+)/.exec(messageOf(shape))?.[1] ?? '_id_';
}

/**
 * MongoDB reports the key as `keyValue`; servers that only put it in the message (wire-compatible test
 * servers) get it parsed from `dup key: { field: value, … }`, values kept as JSON where they parse.
 */
function duplicateKey(shape: DriverErrorShape): Record<string, unknown> {
  if (typeof shape.keyValue === 'object' && shape.keyValue !== null) return { ...(shape.keyValue as Record<string, unknown>) };
  const shown = /dup key: \{ ?(.*?) ?\}$/.exec(messageOf(shape))?.[1] ?? '';
  const key: Record<string, unknown> = {};
  for (const match of shown.matchAll(/([^\s:,]+): ("(?:[^"\\]|\\.)*"|[^,]*)/g)) {
    const [, field, raw] = match as unknown as [string, string, string];
    try {
      key[field] = JSON.parse(raw) as unknown;
    } catch {
      key[field] = raw;
    }
  }
  return key;
}
