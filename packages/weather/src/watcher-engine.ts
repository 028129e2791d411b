import { inject, injectable } from 'tsyringe';
import { injectRef, kernelRefs, errorDetail, type Logger } from '@vigie/kernel';
import { alarmChangesRef, type AlarmChangeService, type AlarmTriggerEvent } from '@vigie/alarms';
import { entityRepositoryRef, type EntityRepository } from '@vigie/context-graph';
import { activePbehaviorsRef, type ActivePbehaviors } from '@vigie/pbehaviors';
import { compile, type Template } from '@vigie/templates';
import { WatcherSelection } from './watcher-selection.js';
import { dependsChange, selectionField, selectionIsCurrent, selectionRecord, selectorKey, watcherSelector, type Selector } from './watcher-selector.js';
import { watcherCounters, worstState, type WatchedDependency } from './watcher-state.js';
import { WeatherRepository, type AlarmDoc, type EntityDoc } from './weather-repository.js';

/** The identity of the alarms the engine raises on watchers, as the original's engine-watcher sent them. */
export const watcherConnector = 'watcher';

/** Changed entities looked at together (one read, one query per `mfilter`). */
const entityChunk = 1000;
/** Watchers whose alarms are worked out together (one read of their dependencies and alarms). */
const alarmChunk = 200;

interface IndexedWatcher {
  doc: EntityDoc;
  selector: Selector;
}

function stringIds(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
}

function stateOf(alarm: AlarmDoc | undefined): number {
  const state = alarm?.v?.state;
  const value = typeof state === 'object' && state !== null ? (state as { val?: unknown }).val : undefined;
  return typeof value === 'number' ? value : 0;
}

/**
 * The watcher engine (REFERENCE §5.8, §6.2). A watcher's dependencies are its `depends`: the links of imports plus
 * the entities its `mfilter` or `entities` patterns select, kept current as entities appear, change or go
 * (`context-graph.entities-changed`), and stored with the reciprocal `impact`. Its alarm follows the worst state of its
 * dependencies' open alarms (`alarms.trigger`), with the `output_template` text; every change goes through
 * `alarmChanges`. Work is queued and done one batch at a time, off the path of the change that caused it; the beat
 * reloads the watchers and works every alarm out again, as a safety net (pbehaviors starting or ending, restarts).
 */
@injectable()
export class WatcherEngine {
  readonly #watchers = new Map<string, IndexedWatcher>();
  /** Dependency id ⇒ the watchers depending on it. */
  readonly #dependents = new Map<string, Set<string>>();
  readonly #changedEntities = new Set<string>();
  readonly #staleAlarms = new Set<string>();
  readonly #templates = new Map<string, Template | Error>();
  /** The last problem logged per watcher and concern, so that a beat does not log it again. */
  readonly #reported = new Map<string, string>();
  #queue: Promise<void> = Promise.resolve();
  #drainQueued = false;

  constructor(
    @inject(WeatherRepository) private readonly repository: WeatherRepository,
    @inject(WatcherSelection) private readonly selection: WatcherSelection,
    @injectRef(entityRepositoryRef) private readonly entities: EntityRepository,
    @injectRef(alarmChangesRef) private readonly alarmChanges: AlarmChangeService,
    @injectRef(activePbehaviorsRef) private readonly activePbehaviors: ActivePbehaviors,
    @injectRef(kernelRefs.logger) private readonly logger: Logger,
  ) {}

  /** `context-graph.entities-changed`: returns at once; the entities are looked at by the next batch. */
  entitiesChanged(ids: readonly string[]): void {
    for (const id of ids) this.#changedEntities.add(id);
    this.#scheduleDrain();
  }

  /** `alarms.trigger`: the watchers depending on the alarm's entity are worked out again by the next batch. */
  onTrigger(payload: AlarmTriggerEvent): void {
    const watchers = this.#dependents.get(payload.alarm.d);
    if (!watchers) return;
    for (const id of watchers) this.#staleAlarms.add(id);
    this.#scheduleDrain();
  }

  /** Reloads every watcher, selects again those whose criteria changed, and works every watcher's alarm out again. */
  beat(): Promise<void> {
    return this.#enqueue(async () => {
      const docs = await this.repository.entities({ type: 'watcher' });
      const seen = new Set(docs.map((doc) => doc._id));
      for (const id of [...this.#watchers.keys()]) if (!seen.has(id)) this.#forget(id);
      const reselect = docs.filter((doc) => this.#index(doc)).map((doc) => doc._id);
      await this.#reselect(reselect);
      for (const id of this.#watchers.keys()) this.#staleAlarms.add(id);
      await this.#drain();
    });
  }

  /** Resolves when the work queued so far is done. */
  idle(): Promise<void> {
    return this.#queue;
  }

  #enqueue(work: () => Promise<void>): Promise<void> {
    const run = this.#queue.then(work).catch((err: unknown) => this.logger.error({ err }, 'watcher engine failed'));
    this.#queue = run;
    return run;
  }

  #scheduleDrain(): void {
    if (this.#drainQueued) return;
    this.#drainQueued = true;
    void this.#enqueue(async () => {
      this.#drainQueued = false;
      await this.#drain();
    });
  }

  async #drain(): Promise<void> {
    if (this.#changedEntities.size > 0) {
      const ids = [...this.#changedEntities];
      this.#changedEntities.clear();
      for (let i = 0; i < ids.length; i += entityChunk) await this.#entitiesChanged(ids.slice(i, i + entityChunk));
    }
    if (this.#staleAlarms.size > 0) {
      const ids = [...this.#staleAlarms];
      this.#staleAlarms.clear();
      for (let i = 0; i < ids.length; i += alarmChunk) await this.#updateAlarms(ids.slice(i, i + alarmChunk));
    }
  }

  /** Indexes a watcher as stored; true when its selection must be computed again. */
  #index(doc: EntityDoc): boolean {
    const known = this.#watchers.get(doc._id);
    // The compiled criteria are kept while they stay the same.
    const selector = known && known.selector.key === selectorKey(doc) ? known.selector : watcherSelector(doc);
    this.#setDepends(doc._id, known ? stringIds(known.doc.depends) : [], stringIds(doc.depends));
    this.#watchers.set(doc._id, { doc, selector });
    this.#report(doc._id, 'selection', selector.problems.length > 0 ? `watcher ${doc._id} selects no entity by rule: ${selector.problems.join('; ')}` : undefined);
    return !selectionIsCurrent(doc, selector);
  }

  #forget(id: string): void {
    const known = this.#watchers.get(id);
    if (!known) return;
    this.#setDepends(id, stringIds(known.doc.depends), []);
    this.#watchers.delete(id);
    for (const concern of ['selection', 'method', 'output'] as const) this.#reported.delete(`${id}\u0000${concern}`);
  }

  #setDepends(watcherId: string, before: readonly string[], after: readonly string[]): void {
    for (const id of before) {
      const set = this.#dependents.get(id);
      set?.delete(watcherId);
      if (set?.size === 0) this.#dependents.delete(id);
    }
    for (const id of after) {
      let set = this.#dependents.get(id);
      if (!set) this.#dependents.set(id, (set = new Set()));
      set.add(watcherId);
    }
  }

  /** Logs a watcher's problem once (at warn level), until it changes or goes. */
  #report(watcherId: string, concern: 'selection' | 'method' | 'output', problem: string | undefined): void {
    const key = `${watcherId}\u0000${concern}`;
    if (problem === undefined) {
      this.#reported.delete(key);
      return;
    }
    if (this.#reported.get(key) === problem) return;
    this.#reported.set(key, problem);
    this.logger.warn({ watcher: watcherId }, problem);
  }

  async #entitiesChanged(ids: string[]): Promise<void> {
    // Without watchers, only new watchers matter: the others (a connector listing every resource it feeds, say)
    // are not read whole for nothing.
    const changed = await this.repository.entitiesById(ids, this.#watchers.size === 0 ? { type: 'watcher' } : {});
    const docs = new Map(changed.map((doc) => [doc._id, doc]));
    const reselect: string[] = [];
    for (const id of ids) {
      const doc = docs.get(id);
      if (doc?.type === 'watcher') {
        if (this.#index(doc)) reselect.push(id);
        this.#staleAlarms.add(id);
      } else if (this.#watchers.has(id)) {
        this.#forget(id);
      }
      // Enabled or disabled, gone: the watchers depending on it count it differently.
      for (const watcherId of this.#dependents.get(id) ?? []) this.#staleAlarms.add(watcherId);
    }
    await this.#reselect(reselect);

    // The other watchers: does each changed entity enter or leave their selection?
    const selectors = new Map<string, Selector>();
    for (const [watcherId, { selector }] of this.#watchers) if (selector.key !== '' && !reselect.includes(watcherId)) selectors.set(watcherId, selector);
    if (selectors.size === 0) return;
    const selected = await this.selection.among(selectors, ids, docs);
    for (const [watcherId, chosen] of selected) {
      const watcher = this.#watchers.get(watcherId)!;
      const record = new Set(selectionRecord(watcher.doc).ids);
      const next = new Set(record);
      for (const id of ids) {
        if (chosen.has(id)) next.add(id);
        else next.delete(id);
      }
      await this.#store(watcher, next);
    }
  }

  /** Computes the whole selection of `ids` again and stores it. */
  async #reselect(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    const selectors = new Map(ids.flatMap((id) => (this.#watchers.has(id) ? [[id, this.#watchers.get(id)!.selector] as const] : [])));
    const selected = await this.selection.all(selectors);
    for (const [watcherId, chosen] of selected) await this.#store(this.#watchers.get(watcherId)!, chosen);
  }

  /** Brings the watcher's stored `depends` (and the reciprocal `impact`) to its links plus `selected`. */
  async #store(watcher: IndexedWatcher, selected: Iterable<string>): Promise<void> {
    const { doc, selector } = watcher;
    const change = dependsChange(doc, selector, selected);
    if (change.add.length === 0 && change.remove.length === 0 && !change.record) return;
    await this.entities.updateDepends(doc._id, { add: change.add, remove: change.remove, fields: change.record ? { [selectionField]: change.record } : {} });
    const updated: EntityDoc = { ...doc, depends: change.depends, ...(change.record ? { [selectionField]: change.record } : {}) };
    this.#setDepends(doc._id, stringIds(doc.depends), change.depends);
    this.#watchers.set(doc._id, { doc: updated, selector });
    if (change.add.length > 0 || change.remove.length > 0) {
      this.logger.debug({ watcher: doc._id, added: change.add, removed: change.remove }, 'watcher dependencies changed');
      this.#staleAlarms.add(doc._id);
    }
  }

  /** Works out the alarm of each watcher from its enabled dependencies, and applies a check when it differs. */
  async #updateAlarms(watcherIds: readonly string[]): Promise<void> {
    const watchers = watcherIds.flatMap((id) => this.#watchers.get(id) ?? []).filter(({ doc }) => doc.enabled !== false);
    if (watchers.length === 0) return;
    const dependencyIds = [...new Set(watchers.flatMap(({ doc }) => stringIds(doc.depends)))];
    const [dependencies, alarms, activity] = await Promise.all([
      this.repository.entitiesById(dependencyIds, { enabled: { $ne: false } }),
      this.repository.openAlarmStates([...dependencyIds, ...watchers.map(({ doc }) => doc._id)]),
      this.activePbehaviors.at(),
    ]);
    const enabled = new Set(dependencies.map((entity) => entity._id));
    for (const { doc } of watchers) {
      const method = (doc.state as { method?: unknown } | undefined)?.method;
      if (method !== undefined && method !== 'worst') {
        this.#report(doc._id, 'method', `watcher ${doc._id} has the unknown state method ${JSON.stringify(method)} (only worst exists); its alarm is left as it is`);
        continue;
      }
      this.#report(doc._id, 'method', undefined);
      const watched: WatchedDependency[] = stringIds(doc.depends)
        .filter((id) => id !== doc._id && enabled.has(id))
        .map((id) => {
          const alarm = alarms.get(id);
          return { alarm: alarm ? { state: stateOf(alarm), acknowledged: alarm.v?.ack !== undefined && alarm.v.ack !== null } : null, paused: activity.on(id).length > 0 };
        });
      const counters = watcherCounters(watched);
      const state = worstState(counters);
      const output = this.#output(doc, counters);
      const current = alarms.get(doc._id);
      if (current === undefined ? state === 0 : stateOf(current) === state && current.v?.output === output) continue;
      const check = {
        type: 'check',
        state,
        output,
        author: `${watcherConnector}.${watcherConnector}`,
        initiator: 'system',
        origin: { connector: watcherConnector, connector_name: watcherConnector, component: doc._id },
      } as const;
      try {
        await this.alarmChanges.apply(doc._id, check, { entity: doc });
      } catch (err) {
        // The other watchers go on; the next beat tries this one again.
        this.logger.error({ err, watcher: doc._id }, 'the alarm of a watcher could not be changed');
      }
    }
  }

  /** The watcher's `output_template` rendered with its counters; an unusable template gives an empty output (logged once). */
  #output(doc: EntityDoc, counters: ReturnType<typeof watcherCounters>): string {
    const source = typeof doc.output_template === 'string' ? doc.output_template : '';
    if (source === '') return '';
    let template = this.#templates.get(source);
    if (template === undefined) {
      try {
        template = compile(source);
      } catch (err) {
        template = err instanceof Error ? err : new Error(String(err));
      }
      this.#templates.set(source, template);
    }
    try {
      if (template instanceof Error) throw template;
      const output = template.render(counters);
      this.#report(doc._id, 'output', undefined);
      return output;
    } catch (err) {
      this.#report(doc._id, 'output', `the output_template of watcher ${doc._id} cannot be rendered: ${errorDetail(err)}`);
      return '';
    }
  }
}
