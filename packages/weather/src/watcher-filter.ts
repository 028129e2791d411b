import { HttpError, type Filter } from '@vigie/kernel';
import type { Tile } from './tiles.js';

const tileKeys = ['tileColor', 'tileIcon', 'tileSecondaryIcon'] as const;
type TileKey = (typeof tileKeys)[number];

/**
 * The conditions of a weather filter that are not database queries (REFERENCE §4.8): they are taken out of the
 * filter, wherever they sit in it, and checked against each computed tile.
 */
export interface TileConditions {
  /** `active_pb_all`: every dependency (at least one) is paused. */
  all?: boolean;
  /** `active_pb_some`: at least one dependency is paused. */
  some?: boolean;
  /** `active_pb_watcher`: the watcher is paused. */
  watcher?: boolean;
  /** `active_pb_type` / `active_pb_include_type`, lower-cased. */
  includeTypes: Set<string>;
  /** `active_pb_exclude_type`, lower-cased; exclusion wins over inclusion. */
  excludeTypes: Set<string>;
  /** Accepted values of `tileColor`, `tileIcon`, `tileSecondaryIcon`. */
  tiles: Map<TileKey, Set<string | null>>;
}

/** What a tile offers to its conditions. */
export interface TileFacts {
  somePaused: boolean;
  /** At least one dependency, all paused. */
  allPaused: boolean;
  watcherPaused: boolean;
  /** `type_` of the pbehaviors active on the watcher and on its dependencies. */
  types: readonly string[];
  tile: Tile;
}

/** The original's truthy forms; anything else is false. */
function flag(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 'true' || value === 'True';
}

function typeNames(key: string, value: unknown): string[] {
  const values = Array.isArray(value) ? value : [value];
  return values.map((item) => {
    if (typeof item !== 'string' && typeof item !== 'number') throw new HttpError(400, `${key} must be a pbehavior type or a list of them`);
    return String(item).trim().toLowerCase();
  });
}

function tileValues(key: TileKey, value: unknown): (string | null)[] {
  const list = Array.isArray(value)
    ? value
    : typeof value === 'object' && value !== null && Object.keys(value).length === 1 && Array.isArray((value as { $in?: unknown }).$in)
      ? ((value as { $in: unknown[] }).$in)
      : [value];
  if (!list.every((item) => typeof item === 'string' || item === null)) {
    throw new HttpError(400, `${key} must be a tile value, a list of them or {"$in": [...]}`);
  }
  return list as (string | null)[];
}

function isEmptyContainer(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0);
}

/**
 * Splits a weather filter into the database query and the tile conditions. A container left empty by the removal
 * of conditions is removed too (`{"$and": [{"active_pb_some": true}]}` becomes `{}`), as the original did.
 */
export function splitWatcherFilter(filter: Filter): { query: Filter; conditions: TileConditions } {
  const conditions: TileConditions = { includeTypes: new Set(), excludeTypes: new Set(), tiles: new Map() };

  const take = (key: string, value: unknown): boolean => {
    switch (key) {
      case 'active_pb_all':
        conditions.all = flag(value);
        return true;
      case 'active_pb_some':
        conditions.some = flag(value);
        return true;
      case 'active_pb_watcher':
        conditions.watcher = flag(value);
        return true;
      case 'active_pb_type':
      case 'active_pb_include_type':
        for (const type of typeNames(key, value)) conditions.includeTypes.add(type);
        return true;
      case 'active_pb_exclude_type':
        for (const type of typeNames(key, value)) conditions.excludeTypes.add(type);
        return true;
      default:
        if ((tileKeys as readonly string[]).includes(key)) {
          let accepted = conditions.tiles.get(key as TileKey);
          if (!accepted) conditions.tiles.set(key as TileKey, (accepted = new Set()));
          for (const item of tileValues(key as TileKey, value)) accepted.add(item);
          return true;
        }
        return false;
    }
  };

  // Returns undefined when the value should disappear from its parent.
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) {
      const kept = value.map(strip).filter((item) => item !== undefined);
      return kept.length === 0 && value.length > 0 ? undefined : kept;
    }
    if (typeof value === 'object' && value !== null) {
      const kept: Record<string, unknown> = {};
      for (const [key, member] of Object.entries(value)) {
        if (take(key, member)) continue;
        const stripped = strip(member);
        if (stripped !== undefined) kept[key] = stripped;
      }
      return Object.keys(kept).length === 0 && !isEmptyContainer(value) ? undefined : kept;
    }
    return value;
  };

  return { query: (strip(filter) as Filter | undefined) ?? {}, conditions };
}

function typesAllowed(conditions: TileConditions, types: readonly string[]): boolean {
  const normalized = types.map((type) => type.trim().toLowerCase());
  if (normalized.some((type) => conditions.excludeTypes.has(type))) return false;
  if (normalized.length === 0 || conditions.includeTypes.size === 0) return true;
  return normalized.some((type) => conditions.includeTypes.has(type));
}

/**
 * Whether a tile passes the conditions, with the original's rules (`watcher/filtering.py`): flags not given pass;
 * given ones must equal the facts; and when `active_pb_watcher` is not given, a paused watcher counts as "some
 * paused" (shown unless `active_pb_some` is false). Types: any excluded type hides the tile; with included types,
 * a tile with active pbehaviors needs one of them.
 */
export function passes(conditions: TileConditions, facts: TileFacts): boolean {
  let watcherOk = conditions.watcher === undefined || conditions.watcher === facts.watcherPaused;
  let pausesOk: boolean;
  if (conditions.all === undefined && conditions.some === undefined) pausesOk = true;
  else if (conditions.all !== undefined && conditions.some !== undefined) pausesOk = conditions.all === facts.allPaused && conditions.some === facts.somePaused;
  else if (conditions.all !== undefined) pausesOk = conditions.all === facts.allPaused;
  else pausesOk = conditions.some === facts.somePaused;

  if (conditions.watcher === undefined && facts.watcherPaused) {
    watcherOk = conditions.some !== false;
    pausesOk = watcherOk;
  }

  if (!watcherOk || !pausesOk || !typesAllowed(conditions, facts.types)) return false;
  for (const [key, accepted] of conditions.tiles) if (!accepted.has(facts.tile[key])) return false;
  return true;
}
