import { describe, expect, it } from 'vitest';
import { computeTile, pauseIcon, type DependencyStatus, type WatcherStatus } from './tiles.js';

const watcher = (state = 0, pauseTypes: string[] = []): WatcherStatus => ({ state, pauseTypes });
const dep = (pauseTypes: string[] = [], extra: Partial<DependencyStatus> = {}): DependencyStatus => ({ enabled: true, pauseTypes, unacknowledgedAlarm: false, ...extra });

describe('isWatcherPaused', () => {
  it('is true when the watcher has an active pbehavior', () => {
    expect(computeTile(watcher(0, ['generic']), [dep()]).isWatcherPaused).toBe(true);
    expect(computeTile(watcher(), [dep(['Pause'])]).isWatcherPaused).toBe(false);
  });
});

describe('isAllEntitiesPaused', () => {
  it('is true when every dependency is paused, and when there is none', () => {
    expect(computeTile(watcher(), [dep(['x']), dep(['y'])]).isAllEntitiesPaused).toBe(true);
    expect(computeTile(watcher(), [dep(['x']), dep()]).isAllEntitiesPaused).toBe(false);
    expect(computeTile(watcher(), []).isAllEntitiesPaused).toBe(true);
  });
});

describe('isActionRequired', () => {
  it('is true when an unpaused dependency has an unacknowledged open alarm', () => {
    expect(computeTile(watcher(), [dep(), dep([], { unacknowledgedAlarm: true })]).isActionRequired).toBe(true);
  });

  it('is false when that dependency is paused, when the watcher is paused, or without such alarms', () => {
    expect(computeTile(watcher(), [dep(['x'], { unacknowledgedAlarm: true })]).isActionRequired).toBe(false);
    expect(computeTile(watcher(2, ['x']), [dep([], { unacknowledgedAlarm: true })]).isActionRequired).toBe(false);
    expect(computeTile(watcher(3), [dep()]).isActionRequired).toBe(false);
  });
});

describe('tileColor', () => {
  it('follows the watcher state when nothing is paused', () => {
    expect([0, 1, 2, 3].map((state) => computeTile(watcher(state), [dep()]).tileColor)).toEqual(['ok', 'minor', 'major', 'critical']);
  });

  it('is pause when the watcher is paused or every one of its (at least one) dependencies is', () => {
    expect(computeTile(watcher(3, ['generic']), [dep()]).tileColor).toBe('pause');
    expect(computeTile(watcher(3), [dep(['generic']), dep(['x'])]).tileColor).toBe('pause');
    expect(computeTile(watcher(3), [dep(['generic']), dep()]).tileColor).toBe('critical');
    expect(computeTile(watcher(2), []).tileColor).toBe('major');
  });

  it('reads states out of range as the nearest one', () => {
    expect(computeTile(watcher(7), []).tileColor).toBe('critical');
    expect(computeTile(watcher(Number.NaN), []).tileColor).toBe('ok');
  });
});

describe('tileIcon', () => {
  it('comes from the types of the watcher pbehaviors, by precedence maintenance > pause > unmonitored', () => {
    expect(computeTile(watcher(2, ['Hors plage horaire de surveillance', 'Pause', 'Maintenance']), [dep()]).tileIcon).toBe('maintenance');
    expect(computeTile(watcher(2, ['Hors plage horaire de surveillance', 'pause']), [dep()]).tileIcon).toBe('pause');
    expect(computeTile(watcher(2, ['Hors plage horaire de surveillance']), [dep()]).tileIcon).toBe('unmonitored');
  });

  it('is the state icon for other types, and matches every type but pause case-sensitively', () => {
    expect(computeTile(watcher(1, ['generic']), [dep()]).tileIcon).toBe('minor');
    expect(computeTile(watcher(1, ['maintenance']), [dep()]).tileIcon).toBe('minor');
    expect(computeTile(watcher(1, ['PAUSE']), [dep()]).tileIcon).toBe('pause');
  });

  it('comes from the dependencies pbehaviors when the watcher has none and every dependency is paused', () => {
    expect(computeTile(watcher(3), [dep(['Hors plage horaire de surveillance']), dep(['Maintenance'])]).tileIcon).toBe('maintenance');
    expect(computeTile(watcher(3), [dep(['Maintenance']), dep()]).tileIcon).toBe('critical');
    expect(computeTile(watcher(3, ['Pause']), [dep(['Maintenance'])]).tileIcon).toBe('pause');
    expect(computeTile(watcher(2), []).tileIcon).toBe('major');
  });
});

describe('tileSecondaryIcon', () => {
  it('is null when every dependency is paused (and without dependencies)', () => {
    expect(computeTile(watcher(), [dep(['Maintenance']), dep(['Pause'])]).tileSecondaryIcon).toBeNull();
    expect(computeTile(watcher(), []).tileSecondaryIcon).toBeNull();
  });

  it('otherwise shows the pause kind of the enabled paused dependencies, by the same precedence', () => {
    expect(computeTile(watcher(), [dep(['Pause']), dep(['Maintenance']), dep()]).tileSecondaryIcon).toBe('maintenance');
    expect(computeTile(watcher(), [dep(['Hors plage horaire de surveillance']), dep()]).tileSecondaryIcon).toBe('unmonitored');
    expect(computeTile(watcher(), [dep(['generic']), dep()]).tileSecondaryIcon).toBeNull();
    expect(computeTile(watcher(), [dep()]).tileSecondaryIcon).toBeNull();
  });

  it('counts only enabled dependencies as paused, and looks only at their pbehaviors', () => {
    expect(computeTile(watcher(), [dep(['Pause']), dep(['Maintenance'], { enabled: false })]).tileSecondaryIcon).toBe('pause');
    expect(computeTile(watcher(), [dep(['Pause'], { enabled: false })]).tileSecondaryIcon).toBeNull();
  });
});

describe('pauseIcon', () => {
  it('has nothing for no types', () => {
    expect(pauseIcon([])).toBeNull();
  });
});
