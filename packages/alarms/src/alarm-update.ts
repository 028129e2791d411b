import type { Update } from '@vigie/kernel';
import type { Alarm } from './alarm.js';

/**
 * The store update that turns `previous` into `next`: `$set` of the changed fields of the top level and of `v`,
 * `$unset` of the removed ones, `$push` of the steps appended. The lifecycle's draft shares every part it did not
 * change with the alarm it read, so a changed field is one that is no longer the same object. Applied to
 * `previous`, the update stores exactly `next` (same members, same member order), which the store's in-place
 * update path applies without copying the whole alarm as a replacement does.
 *
 * A rewritten last step (a `statecounter` step counting one change more) is a `$set` of that element. Undefined
 * when an update cannot say it simply: the cap dropped old steps, the last step was rewritten and others appended,
 * or the members would come out in another order than `next` has. The caller then replaces the document.
 */
export function alarmUpdate(previous: Alarm, next: Alarm): Update | undefined {
  const set: Record<string, unknown> = {};
  const unset: Record<string, ''> = {};
  const push: Record<string, unknown> = {};
  if (!diffMembers(previous, next, '', set, unset, true)) return undefined;
  if (next.v !== previous.v) {
    if (!diffMembers(previous.v, next.v, 'v.', set, unset, false)) return undefined;
    const before = previous.v.steps;
    const after = next.v.steps;
    if (after !== before) {
      if (after.length < before.length) return undefined;
      for (let i = 0; i < before.length - 1; i++) if (after[i] !== before[i]) return undefined;
      const last = before.length - 1;
      if (last >= 0 && after[last] !== before[last]) {
        // A rewritten last step (a `statecounter` counting one change more), with nothing appended.
        if (after.length > before.length) return undefined;
        set[`v.steps.${last}`] = after[last];
      } else if (after.length > before.length) push['v.steps'] = { $each: after.slice(before.length) };
    }
  }
  const update: Update = {};
  if (Object.keys(set).length > 0) update.$set = set;
  if (Object.keys(unset).length > 0) update.$unset = unset;
  if (Object.keys(push).length > 0) update.$push = push;
  return Object.keys(update).length > 0 ? update : undefined;
}

/**
 * Adds the members of `next` that are not those of `previous` to `set`, the removed ones to `unset`; `v` (on the
 * top level) and `v.steps` are left to the caller. False when the members would not come out in `next`'s order:
 * an update keeps the kept members where they were and adds the new ones at the end.
 */
function diffMembers(
  previous: Record<string, unknown>,
  next: Record<string, unknown>,
  prefix: string,
  set: Record<string, unknown>,
  unset: Record<string, ''>,
  topLevel: boolean,
): boolean {
  const kept: string[] = [];
  for (const key of Object.keys(previous)) {
    if (next[key] === undefined) unset[`${prefix}${key}`] = '';
    else kept.push(key);
  }
  let position = 0;
  for (const key of Object.keys(next)) {
    const value = next[key];
    if (value === undefined) continue;
    if (position < kept.length) {
      // A member of `previous` must come at its place among the kept ones, before any new member.
      if (kept[position] !== key) return false;
      position += 1;
    }
    if (value === previous[key] || (topLevel ? key === 'v' : key === 'steps')) continue;
    set[`${prefix}${key}`] = value;
  }
  return true;
}
