import type { Doc, Update } from '@vigie/kernel';
import { appendToList, cloneJson, isJsonObject, jsonEqual, memberSet } from '@vigie/json';

/**
 * The common update shapes — `$set`, `$unset`, `$inc`, `$min`, `$max`, `$push` of plain values (one, or several with `$each`) and `$addToSet` of
 * scalars, on paths through plain sub-documents — applied without copying the document: the result shares every
 * part the update does not touch with the stored version (stored documents are never changed in place), and only
 * the operator values are copied and checked. Adding one id to a list of ten thousand copies the list once and
 * the document's top level, not the whole document three times as a general update does.
 *
 * `$set` of `list.N` replaces an element N the list holds.
 *
 * Returns undefined when the update needs MongoDB's finer rules (other array positions, `$` operators, modifiers,
 * conflicting paths, type mismatches): the caller then runs the general implementation, which knows them.
 */
export function fastUpdate(doc: Doc, update: Update): { doc: Doc; changed: boolean } | undefined {
  const plans: [op: string, parts: string[], argument: unknown, path: string][] = [];
  const touched: string[] = [];
  for (const [op, fields] of Object.entries(update)) {
    if (op === '$setOnInsert') continue;
    if (!fastOperators.has(op) || typeof fields !== 'object' || fields === null) return undefined;
    for (const [path, argument] of Object.entries(fields as Record<string, unknown>)) {
      const parts = path.split('.');
      // A number as the last part of a `$set` names an element of an existing list (checked when applied).
      const element = op === '$set' && parts.length > 1 && /^(0|[1-9]\d*)$/.test(parts[parts.length - 1] as string) ? 1 : 0;
      const named = element ? parts.slice(0, -1) : parts;
      if (parts[0] === '_id' || parts.some((part) => part === '' || part.startsWith('$')) || named.some((part) => /^\d+$/.test(part))) return undefined;
      touched.push(path);
      plans.push([op, parts, argument, path]);
    }
  }
  if (plans.length === 0 || conflicting(touched)) return undefined;

  const root: Record<string, unknown> = { ...doc };
  const copied = new Set<object>([root]);
  let changed = false;
  for (const [op, parts, argument, dotted] of plans) {
    const last = parts[parts.length - 1] as string;
    if (op === '$set' && /^\d+$/.test(last)) {
      // `list.N`: the list must be there (through plain sub-documents) and hold an element N.
      let parent: Record<string, unknown> = root;
      for (let i = 0; i < parts.length - 2; i++) {
        const child: unknown = parent[parts[i] as string];
        if (!isPlainObject(child)) return undefined;
        if (!copied.has(child)) {
          const copy = { ...child };
          copied.add(copy);
          parent[parts[i] as string] = copy;
          parent = copy;
        } else parent = child;
      }
      const listKey = parts[parts.length - 2] as string;
      const list: unknown = parent[listKey];
      const position = Number(last);
      if (!Array.isArray(list) || position >= list.length || argument === undefined) return undefined;
      const value = cloneJson(argument, dotted);
      if (jsonEqual(list[position], value)) continue;
      const copy = copied.has(list) ? list : [...(list as unknown[])];
      copied.add(copy);
      copy[position] = value;
      parent[listKey] = copy;
      changed = true;
      continue;
    }
    // The parent object of the last part, copied on the way down; undefined when a part on the way is not an object.
    let parent: Record<string, unknown> | undefined = root;
    for (let i = 0; i < parts.length - 1 && parent; i++) {
      const key = parts[i] as string;
      const child: unknown = parent[key];
      if (child === undefined) {
        if (op === '$unset') {
          parent = undefined;
          break;
        }
        const created: Record<string, unknown> = {};
        copied.add(created);
        parent[key] = created;
        parent = created;
      } else if (isPlainObject(child)) {
        if (!copied.has(child)) {
          const copy = { ...child };
          copied.add(copy);
          parent[key] = copy;
          parent = copy;
        } else parent = child;
      } else return undefined;
    }
    if (!parent) continue; // $unset of a path that is not there
    const key = parts[parts.length - 1] as string;
    const current: unknown = parent[key];
    switch (op) {
      case '$set': {
        if (argument === undefined) return undefined;
        const value = cloneJson(argument, dotted);
        if (current === undefined || !jsonEqual(current, value)) changed = true;
        parent[key] = value;
        break;
      }
      case '$unset':
        if (key in parent) {
          delete parent[key];
          changed = true;
        }
        break;
      case '$inc':
        if (typeof argument !== 'number' || !Number.isFinite(argument)) return undefined;
        if (current === undefined) parent[key] = argument;
        else if (typeof current === 'number' && Number.isFinite(current + argument)) parent[key] = current + argument;
        else return undefined;
        if (current === undefined || argument !== 0) changed = true;
        break;
      case '$min':
      case '$max':
        if (typeof argument !== 'number' || !Number.isFinite(argument)) return undefined;
        if (current === undefined || (typeof current === 'number' && (op === '$min' ? argument < current : argument > current))) {
          parent[key] = argument;
          changed = true;
        } else if (typeof current !== 'number') return undefined;
        break;
      case '$push': {
        let values: unknown[];
        if (isPlainObject(argument) && Object.keys(argument).some((k) => k.startsWith('$'))) {
          // `$each` alone appends its values; the other modifiers (`$slice`, `$sort`, `$position`) are left to the general implementation.
          const keys = Object.keys(argument);
          if (keys.length !== 1 || keys[0] !== '$each' || !Array.isArray(argument.$each)) return undefined;
          values = cloneJson(argument.$each as unknown[], `${dotted}.$each`);
        } else values = [cloneJson(argument, dotted)];
        if (current !== undefined && !Array.isArray(current)) return undefined;
        if (current === undefined || values.length > 0) {
          parent[key] = current === undefined ? values : [...current, ...values];
          changed = true;
        }
        break;
      }
      case '$addToSet': {
        let values: unknown[];
        if (isPlainObject(argument)) {
          const keys = Object.keys(argument);
          if (keys.length !== 1 || keys[0] !== '$each' || !Array.isArray(argument.$each)) return undefined;
          values = argument.$each as unknown[];
        } else values = [argument];
        // Sub-documents compare by MongoDB's rules (field order matters): left to the general implementation.
        if (!values.every(isScalar)) return undefined;
        if (current !== undefined && !Array.isArray(current)) return undefined;
        const list = (current ?? []) as unknown[];
        // A long list is checked through its member set, kept with it (stored lists never change in place).
        const present = list.length > 16 ? memberSet(list) : undefined;
        const added: unknown[] = [];
        for (const value of values) {
          if (present ? present.has(value) : list.includes(value)) continue;
          if (added.includes(value)) continue;
          added.push(value);
        }
        if (added.length > 0 || current === undefined) {
          parent[key] = appendToList(list, added);
          changed = true;
        }
        break;
      }
    }
  }
  return { doc: root as Doc, changed };
}

const fastOperators = new Set(['$set', '$unset', '$inc', '$min', '$max', '$push', '$addToSet']);

/** Stricter than `isJsonObject`: a class instance (a Date, say) is not walked into but left to the general implementation. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!isJsonObject(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function isScalar(value: unknown): boolean {
  return value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

/** Two paths of one update that are equal or one inside the other: MongoDB refuses them. */
function conflicting(paths: readonly string[]): boolean {
  for (let i = 0; i < paths.length; i++) {
    for (let j = i + 1; j < paths.length; j++) {
      const a = paths[i] as string;
      const b = paths[j] as string;
      if (a === b || within(a, b) || within(b, a)) return true;
    }
  }
  return false;
}

/** Whether `path` is inside `outer` (`outer.…`), without building `outer.`. */
function within(path: string, outer: string): boolean {
  return path.length > outer.length && path[outer.length] === '.' && path.startsWith(outer);
}
