import { assertSafeFilter } from '@vigie/filter-safety';
import { errorDetail, type Filter } from '@vigie/kernel';
import { compileEntityPatterns, type CompiledPatterns, type PatternEntity } from '@vigie/patterns';
import type { EntityDoc } from './weather-repository.js';

/**
 * Field of a watcher where the engine records what its selection chose: the ids of `depends` it added because the
 * watcher's `mfilter` or `entities` select them, and the selector text it computed them from. The other ids of
 * `depends` are the links an import made; an import that replaces the watcher drops the record with them.
 */
export const selectionField = 'watcher_selection';

export interface SelectionRecord {
  /** `Selector.key` the ids were computed from. */
  selector: string;
  ids: string[];
}

/** What a watcher selects its dependencies with, beyond the links of imports. */
export interface Selector {
  /** The selection criteria as text, `''` without any: a change of key means the selection must be computed again. */
  key: string;
  /** A legacy watcher's `mfilter`, parsed and checked. */
  mfilter?: Filter;
  /** The `entities` patterns. */
  patterns?: CompiledPatterns<PatternEntity | undefined>;
  /** Why a criterion the watcher has selects nothing (an unreadable `mfilter`, invalid patterns). */
  problems: string[];
  /** The `mfilter` is text that is not a safe JSON filter (the dependency route answers `filter_not_found`). */
  mfilterUnreadable: boolean;
}

function stringIds(value: unknown): string[] {
  return Array.isArray(value) ? [...new Set(value.filter((id): id is string => typeof id === 'string'))] : [];
}

/** `Selector.key` of a watcher, without compiling anything. */
export function selectorKey(watcher: EntityDoc): string {
  const hasPatterns = Array.isArray(watcher.entities) && watcher.entities.length > 0;
  const hasFilter = typeof watcher.mfilter === 'string' && watcher.mfilter.trim() !== '';
  if (!hasPatterns && !hasFilter) return '';
  return JSON.stringify({ mfilter: hasFilter ? watcher.mfilter : null, entities: hasPatterns ? watcher.entities : null });
}

/**
 * The selector of a watcher. `entities` patterns select when they are a non-empty list (an absent or empty list
 * selects nothing here: watchers made by imports have none, and "every entity" must be asked for with `[{}]`);
 * `mfilter` selects when it is non-empty text. With both, an entity either selects is a dependency.
 */
export function watcherSelector(watcher: EntityDoc): Selector {
  const selector: Selector = { key: selectorKey(watcher), problems: [], mfilterUnreadable: false };
  if (selector.key === '') return selector;
  const hasPatterns = Array.isArray(watcher.entities) && watcher.entities.length > 0;
  const hasFilter = typeof watcher.mfilter === 'string' && watcher.mfilter.trim() !== '';
  if (hasPatterns) {
    try {
      selector.patterns = compileEntityPatterns(watcher.entities, 'entities');
    } catch (err) {
      selector.problems.push(`its entities patterns are invalid: ${errorDetail(err)}`);
    }
  }
  if (hasFilter) {
    try {
      const parsed: unknown = JSON.parse(watcher.mfilter as string);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('it is not a JSON object');
      selector.mfilter = assertSafeFilter(parsed as Filter);
    } catch (err) {
      selector.mfilterUnreadable = true;
      selector.problems.push(`its mfilter cannot be read: ${errorDetail(err)}`);
    }
  }
  return selector;
}

/** The watcher's selection record; an absent or malformed one is an empty selection of no criteria. */
export function selectionRecord(watcher: EntityDoc): SelectionRecord {
  const raw = watcher[selectionField];
  if (typeof raw !== 'object' || raw === null) return { selector: '', ids: [] };
  const { selector, ids } = raw as { selector?: unknown; ids?: unknown };
  return { selector: typeof selector === 'string' ? selector : '', ids: stringIds(ids) };
}

/** The dependencies imports linked: those of `depends` the selection did not add. */
export function importLinks(watcher: EntityDoc): string[] {
  const selected = new Set(selectionRecord(watcher).ids);
  return stringIds(watcher.depends).filter((id) => !selected.has(id));
}

/** Whether the stored `depends` reflect the watcher's present selection criteria. */
export function selectionIsCurrent(watcher: EntityDoc, selector: Selector): boolean {
  return selectionRecord(watcher).selector === selector.key;
}

/** How a watcher's stored dependencies change for a new selection. */
export interface DependsChange {
  add: string[];
  remove: string[];
  /** The new selection record, when it differs from the stored one. */
  record?: SelectionRecord;
  /** `depends` after the change. */
  depends: string[];
}

/** The change bringing `depends` to the import links plus `selected` (the watcher itself never depends on itself). */
export function dependsChange(watcher: EntityDoc, selector: Selector, selected: Iterable<string>): DependsChange {
  const record = selectionRecord(watcher);
  const depends = stringIds(watcher.depends);
  const links = new Set(importLinks(watcher));
  const chosen = new Set([...selected].filter((id) => id !== watcher._id && !links.has(id)));
  const present = new Set(depends);
  const add = [...chosen].filter((id) => !present.has(id));
  const remove = record.ids.filter((id) => !chosen.has(id));
  const ids = [...chosen].sort();
  const unchanged = record.selector === selector.key && record.ids.length === ids.length && [...record.ids].sort().every((id, i) => id === ids[i]);
  const removed = new Set(remove);
  return {
    add,
    remove,
    ...(unchanged ? {} : { record: { selector: selector.key, ids } }),
    depends: [...depends.filter((id) => !removed.has(id)), ...add],
  };
}
