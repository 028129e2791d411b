import { describe, expect, it } from 'vitest';
import type { Tile } from './tiles.js';
import { passes, splitWatcherFilter, type TileFacts } from './watcher-filter.js';

const tile: Tile = { isActionRequired: false, isAllEntitiesPaused: false, isWatcherPaused: false, tileColor: 'ok', tileIcon: 'ok', tileSecondaryIcon: null };
const facts = (extra: Partial<TileFacts> = {}): TileFacts => ({ somePaused: false, allPaused: false, watcherPaused: false, types: [], tile, ...extra });
const conditionsOf = (filter: Record<string, unknown>) => splitWatcherFilter(filter).conditions;

describe('splitWatcherFilter', () => {
  it('takes the special keys out wherever they are, dropping containers they leave empty', () => {
    const { query, conditions } = splitWatcherFilter({
      name: { $regex: 'web' },
      $and: [{ active_pb_some: true }, { active_pb_all: 'False' }, { 'infos.site.value': 'Lyon', active_pb_type: ' Pause ' }],
      $or: [{ tileColor: 'minor' }, { tileColor: { $in: ['major', 'critical'] } }],
      active_pb_exclude_type: ['Maintenance', 'generic'],
      active_pb_watcher: 1,
      tileSecondaryIcon: null,
    });
    expect(query).toEqual({ name: { $regex: 'web' }, $and: [{ 'infos.site.value': 'Lyon' }] });
    expect(conditions).toEqual({
      some: true,
      all: false,
      watcher: true,
      includeTypes: new Set(['pause']),
      excludeTypes: new Set(['maintenance', 'generic']),
      tiles: new Map<string, Set<string | null>>([
        ['tileColor', new Set(['minor', 'major', 'critical'])],
        ['tileSecondaryIcon', new Set([null])],
      ]),
    });
  });

  it('leaves a filter without special keys as it is, empty containers and nulls included', () => {
    const filter = { infos: {}, 'infos.x.value': null, $or: [{ name: 'a' }, { name: 'b' }] };
    expect(splitWatcherFilter(filter)).toMatchObject({ query: filter, conditions: { includeTypes: new Set(), tiles: new Map() } });
    expect(splitWatcherFilter({ $and: [{ active_pb_some: '1' }] }).query).toEqual({});
  });

  it('reads only 1, "1", "true", "True" and true as true', () => {
    expect([1, '1', 'true', 'True', true, 'yes', 0, 'TRUE', null].map((value) => conditionsOf({ active_pb_some: value }).some)).toEqual([
      true, true, true, true, true, false, false, false, false,
    ]);
  });

  it('refuses condition values it cannot read, with a 400', () => {
    expect(() => splitWatcherFilter({ active_pb_type: { $in: ['x'] } })).toThrow('active_pb_type must be a pbehavior type or a list of them');
    expect(() => splitWatcherFilter({ tileIcon: 3 })).toThrow('tileIcon must be a tile value, a list of them or {"$in": [...]}');
  });
});

describe('passes', () => {
  it('passes everything without conditions', () => {
    expect(passes(conditionsOf({}), facts({ watcherPaused: true, somePaused: true, types: ['Pause'] }))).toBe(true);
  });

  it('active_pb_some and active_pb_all compare with the dependencies pauses', () => {
    expect(passes(conditionsOf({ active_pb_some: true }), facts({ somePaused: true }))).toBe(true);
    expect(passes(conditionsOf({ active_pb_some: true }), facts())).toBe(false);
    expect(passes(conditionsOf({ active_pb_some: false }), facts())).toBe(true);
    expect(passes(conditionsOf({ active_pb_all: true }), facts({ somePaused: true, allPaused: true }))).toBe(true);
    expect(passes(conditionsOf({ active_pb_all: true }), facts({ somePaused: true }))).toBe(false);
    // "at least one dependency without pbehavior, at least one with"
    expect(passes(conditionsOf({ active_pb_all: false, active_pb_some: true }), facts({ somePaused: true }))).toBe(true);
    expect(passes(conditionsOf({ active_pb_all: false, active_pb_some: true }), facts({ somePaused: true, allPaused: true }))).toBe(false);
  });

  it('active_pb_watcher compares with the watcher pause; without it a paused watcher counts as some pause', () => {
    expect(passes(conditionsOf({ active_pb_watcher: true }), facts({ watcherPaused: true }))).toBe(true);
    expect(passes(conditionsOf({ active_pb_watcher: true }), facts())).toBe(false);
    expect(passes(conditionsOf({ active_pb_watcher: false }), facts({ watcherPaused: true }))).toBe(false);
    expect(passes(conditionsOf({ active_pb_some: true }), facts({ watcherPaused: true }))).toBe(true);
    expect(passes(conditionsOf({ active_pb_all: true }), facts({ watcherPaused: true }))).toBe(true);
    expect(passes(conditionsOf({ active_pb_some: false }), facts({ watcherPaused: true }))).toBe(false);
    // "a pbehavior on the watcher but none on the dependencies"
    expect(passes(conditionsOf({ active_pb_some: false, active_pb_watcher: true }), facts({ watcherPaused: true }))).toBe(true);
    expect(passes(conditionsOf({ active_pb_some: false, active_pb_watcher: true }), facts({ watcherPaused: true, somePaused: true }))).toBe(false);
  });

  it('types: an excluded one hides the tile, included ones must be among the active types, case-insensitively', () => {
    expect(passes(conditionsOf({ active_pb_include_type: 'maintenance' }), facts({ types: ['Maintenance'] }))).toBe(true);
    expect(passes(conditionsOf({ active_pb_include_type: 'maintenance' }), facts({ types: ['Pause'] }))).toBe(false);
    expect(passes(conditionsOf({ active_pb_include_type: 'maintenance' }), facts())).toBe(true);
    expect(passes(conditionsOf({ active_pb_type: ['pause', 'maintenance'] }), facts({ types: ['Pause'] }))).toBe(true);
    expect(passes(conditionsOf({ active_pb_exclude_type: 'pause' }), facts({ types: ['Maintenance', 'Pause'] }))).toBe(false);
    expect(passes(conditionsOf({ active_pb_exclude_type: 'pause', active_pb_include_type: 'maintenance' }), facts({ types: ['Maintenance', 'pause'] }))).toBe(false);
    expect(passes(conditionsOf({ active_pb_exclude_type: 'ti' }), facts({ types: ['ti_unknown'] }))).toBe(true);
  });

  it('tile keys must hold the computed value', () => {
    const major: Tile = { ...tile, tileColor: 'major', tileIcon: 'maintenance', tileSecondaryIcon: 'pause' };
    expect(passes(conditionsOf({ tileColor: 'major' }), facts({ tile: major }))).toBe(true);
    expect(passes(conditionsOf({ tileColor: ['ok', 'minor'] }), facts({ tile: major }))).toBe(false);
    expect(passes(conditionsOf({ tileIcon: 'maintenance', tileSecondaryIcon: 'pause' }), facts({ tile: major }))).toBe(true);
    expect(passes(conditionsOf({ tileSecondaryIcon: null }), facts({ tile: major }))).toBe(false);
  });
});
