export type TileColor = 'pause' | 'ok' | 'minor' | 'major' | 'critical';
export type TileIcon = 'pause' | 'maintenance' | 'unmonitored' | 'ok' | 'minor' | 'major' | 'critical';
export type PauseIcon = 'pause' | 'maintenance' | 'unmonitored';

/** What the tile rules need to know about the watcher. */
export interface WatcherStatus {
  /** `v.state.val` of the watcher's open alarm, 0 without one. */
  state: number;
  /** `type_` of each pbehavior active on the watcher (empty: not paused). */
  pauseTypes: readonly string[];
}

/** What the tile rules need to know about one dependency. */
export interface DependencyStatus {
  enabled: boolean;
  /** `type_` of each pbehavior active on the dependency (empty: not paused). */
  pauseTypes: readonly string[];
  /** The dependency has an open alarm that is not acknowledged. */
  unacknowledgedAlarm: boolean;
}

export interface Tile {
  isActionRequired: boolean;
  isAllEntitiesPaused: boolean;
  isWatcherPaused: boolean;
  tileColor: TileColor;
  tileIcon: TileIcon;
  tileSecondaryIcon: PauseIcon | null;
}

const stateNames = ['ok', 'minor', 'major', 'critical'] as const;

/** A state value as an index into the state names (out-of-range or broken values read as the nearest state, or ok). */
export function stateName(state: number): (typeof stateNames)[number] {
  return Number.isFinite(state) ? stateNames[Math.min(3, Math.max(0, Math.trunc(state)))] as (typeof stateNames)[number] : 'ok';
}

/**
 * The pause icon of a set of pbehavior types, by precedence: `Maintenance` ⇒ maintenance, `pause` in any case ⇒
 * pause, `Hors plage horaire de surveillance` ⇒ unmonitored; other types (such as `generic`) give none.
 */
export function pauseIcon(types: Iterable<string>): PauseIcon | null {
  let pause = false;
  let unmonitored = false;
  for (const type of types) {
    if (type === 'Maintenance') return 'maintenance';
    if (type.toLowerCase() === 'pause') pause = true;
    else if (type === 'Hors plage horaire de surveillance') unmonitored = true;
  }
  return pause ? 'pause' : unmonitored ? 'unmonitored' : null;
}

/** The tile of a watcher (REFERENCE §5.8). */
export function computeTile(watcher: WatcherStatus, dependencies: readonly DependencyStatus[]): Tile {
  const watcherPaused = watcher.pauseTypes.length > 0;
  const allPaused = dependencies.every((dependency) => dependency.pauseTypes.length > 0);
  const state = stateName(watcher.state);

  // The watcher's own pbehaviors decide the icon, unless it has none and every dependency is paused.
  const iconTypes = !watcherPaused && allPaused ? dependencies.flatMap((dependency) => dependency.pauseTypes) : watcher.pauseTypes;

  const enabled = dependencies.filter((dependency) => dependency.enabled);
  const pausedEnabled = enabled.filter((dependency) => dependency.pauseTypes.length > 0).length;

  return {
    isActionRequired: !watcherPaused && dependencies.some((dependency) => dependency.unacknowledgedAlarm && dependency.pauseTypes.length === 0),
    isAllEntitiesPaused: allPaused,
    isWatcherPaused: watcherPaused,
    tileColor: watcherPaused || (dependencies.length > 0 && allPaused) ? 'pause' : state,
    tileIcon: pauseIcon(iconTypes) ?? state,
    tileSecondaryIcon: pausedEnabled === dependencies.length ? null : pauseIcon(enabled.flatMap((dependency) => dependency.pauseTypes)),
  };
}
