export { weatherFeature } from './feature.js';
export { computeTile, pauseIcon, type DependencyStatus, type Tile, type TileColor, type TileIcon, type PauseIcon, type WatcherStatus } from './tiles.js';
export type { DependencyEntry, WatcherEntry } from './present.js';
