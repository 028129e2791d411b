import { inject, injectable } from 'tsyringe';
import { assertSafeFilter } from '@vigie/filter-safety';
import { injectRef, HttpError, type Filter, type SortSpec } from '@vigie/kernel';
import { activePbehaviorsRef, type ActivePbehaviors, type ActivePbehaviorsAt } from '@vigie/pbehaviors';
import { dependencyEntry, entityName, nextRun, watcherEntry, type DependencyEntry, type WatcherEntry } from './present.js';
import { computeTile, type DependencyStatus } from './tiles.js';
import { passes, splitWatcherFilter } from './watcher-filter.js';
import { WatcherSelection } from './watcher-selection.js';
import { dependsChange, selectionIsCurrent, watcherSelector } from './watcher-selector.js';
import { WeatherRepository, type AlarmDoc, type EntityDoc } from './weather-repository.js';

export interface WatcherPage {
  /** Watchers skipped (`start`). */
  skip: number;
  /** At most this many watchers (`limit`); all when undefined. */
  limit?: number;
  /** Field to sort on (`orderby`), with its direction. */
  sort?: { field: string; direction: 1 | -1 };
}

function ids(value: unknown): string[] {
  return Array.isArray(value) ? [...new Set(value.filter((id): id is string => typeof id === 'string'))] : [];
}

/** `v.state.val` of an open alarm, 0 without one. */
function alarmState(alarm: AlarmDoc | undefined): number {
  const state = alarm?.v?.state;
  const value = typeof state === 'object' && state !== null ? (state as { val?: unknown }).val : undefined;
  return typeof value === 'number' ? value : 0;
}

function hasAck(alarm: AlarmDoc | undefined): boolean {
  const ack = alarm?.v?.ack;
  return ack !== undefined && ack !== null;
}

/** Weather tiles and watcher dependencies, from the context graph, the open alarms and the active pbehaviors. */
@injectable()
export class WeatherService {
  constructor(
    @inject(WeatherRepository) private readonly repository: WeatherRepository,
    @injectRef(activePbehaviorsRef) private readonly activePbehaviors: ActivePbehaviors,
    @inject(WatcherSelection) private readonly selection: WatcherSelection,
  ) {}

  /**
   * The tiles of the watchers a filter selects (REFERENCE §4.8). The page (`start`, `limit`) is cut before the tile
   * conditions of the filter apply, so a page can hold fewer tiles than `limit`, as in the original.
   */
  async watchers(userFilter: unknown, page: WatcherPage): Promise<WatcherEntry[]> {
    const { query, conditions } = splitWatcherFilter(assertSafeFilter(userFilter));
    // Only watchers, whatever the filter says about `type`.
    const filter: Filter = { ...query, type: 'watcher' };
    const sort: SortSpec = page.sort ? { [page.sort.field]: page.sort.direction } : {};
    if (!('_id' in sort)) sort._id = 1;
    const watchers = await this.repository.entities(filter, { sort, skip: page.skip, limit: page.limit });

    const dependencyIds = [...new Set(watchers.flatMap((watcher) => ids(watcher.depends)))];
    const [dependencies, alarms, activity] = await Promise.all([
      this.repository.entitiesById(dependencyIds),
      this.repository.openAlarms([...watchers.map((watcher) => watcher._id), ...dependencyIds]),
      this.activePbehaviors.at(),
    ]);
    const dependencyById = new Map(dependencies.map((entity) => [entity._id, entity]));

    const entries: WatcherEntry[] = [];
    for (const watcher of watchers) {
      const watched = ids(watcher.depends).flatMap((id) => dependencyById.get(id) ?? []);
      const statuses = watched.map((entity) => this.#status(entity, alarms.get(entity._id), activity));
      const watcherAlarm = alarms.get(watcher._id);
      const watcherPbehaviors = activity.on(watcher._id);
      const tile = computeTile({ state: alarmState(watcherAlarm), pauseTypes: watcherPbehaviors.map((p) => p.type_) }, statuses);
      const somePaused = statuses.some((status) => status.pauseTypes.length > 0);
      const facts = {
        somePaused,
        allPaused: somePaused && tile.isAllEntitiesPaused,
        watcherPaused: tile.isWatcherPaused,
        types: [...watcherPbehaviors.map((p) => p.type_), ...statuses.flatMap((status) => status.pauseTypes)],
        tile,
      };
      if (!passes(conditions, facts)) continue;
      const timers = watched.map((entity) => nextRun(alarms.get(entity._id))).filter((next): next is number => next !== null);
      entries.push(watcherEntry(watcher, watcherAlarm, watcherPbehaviors, timers.length > 0 ? Math.min(...timers) : null, tile));
    }
    return entries;
  }

  /**
   * The enabled dependencies of a watcher, sorted by name: its `depends` (the links of imports and what its `mfilter`
   * or `entities` patterns select, kept by the watcher engine). Until the engine stored the selection of the
   * watcher's present criteria (just after an import changed them), the selection is read here.
   */
  async dependencies(watcherId: string): Promise<DependencyEntry[]> {
    const watcher = await this.repository.watcher(watcherId);
    if (!watcher) throw new HttpError(404, 'the watcher_id does not match any watcher', { name: 'resource_not_found' });
    const selector = watcherSelector(watcher);
    // A legacy watcher (an mfilter and no entities patterns) whose filter cannot be read, as the original answered.
    if (watcher.entities === undefined && selector.mfilterUnreadable) throw new HttpError(404, 'impossible to load the desired filter', { name: 'filter_not_found' });
    const dependencyIds = selectionIsCurrent(watcher, selector)
      ? ids(watcher.depends)
      : dependsChange(watcher, selector, (await this.selection.all(new Map([[watcher._id, selector]]))).get(watcher._id) ?? []).depends;
    const entities = await this.repository.entitiesById(dependencyIds, { enabled: { $ne: false } });
    const [alarms, activity] = await Promise.all([this.repository.openAlarms(entities.map((entity) => entity._id)), this.activePbehaviors.at()]);
    return entities
      // Code-point order, as MongoDB and the original compare names.
      .sort((a, b) => compareText(entityName(a), entityName(b)) || compareText(a._id, b._id))
      .map((entity) => dependencyEntry(entity, alarms.get(entity._id), activity.on(entity._id)));
  }

  #status(entity: EntityDoc, alarm: AlarmDoc | undefined, activity: ActivePbehaviorsAt): DependencyStatus {
    return {
      enabled: entity.enabled !== false,
      pauseTypes: activity.on(entity._id).map((pbehavior) => pbehavior.type_),
      unacknowledgedAlarm: alarm !== undefined && !hasAck(alarm),
    };
  }
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
