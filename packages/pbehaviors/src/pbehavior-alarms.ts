import { inject, injectable } from 'tsyringe';
import { injectRef, kernelRefs, type Clock, type Logger } from '@vigie/kernel';
import { alarmChangesRef, alarmReaderRef, type Alarm, type AlarmChangeService, type AlarmOperation, type AlarmPbehaviorInfo, type AlarmReader } from '@vigie/alarms';
import type { PbehaviorRecord } from './pbehavior.js';
import { PbehaviorIndex, type IndexedPbehavior } from './pbehavior-index.js';
import type { Window } from './schedule.js';

/** What `v.pbehavior_info` says of a pbehavior, its entry time aside. */
export type PbehaviorInfo = Omit<AlarmPbehaviorInfo, 'timestamp'>;

/**
 * The 4.x canonical type of a `type_` (the original's migration of 3.x types, case-insensitive). Every Vigie
 * pbehavior pauses its entities, so the types the migration left out read as `pause`.
 */
export function canonicalTypeOf(type: string): string {
  const lower = type.toLowerCase();
  if (lower === 'maintenance') return 'maintenance';
  if (lower === 'hors plage horaire de surveillance') return 'inactive';
  return 'pause';
}

export function pbehaviorInfoOf(pbehavior: Pick<PbehaviorRecord, '_id' | 'name' | 'reason' | 'type_'>): PbehaviorInfo {
  return {
    id: pbehavior._id,
    name: pbehavior.name,
    reason: pbehavior.reason,
    type: pbehavior.type_,
    type_name: pbehavior.type_,
    canonical_type: canonicalTypeOf(pbehavior.type_),
  };
}

function sameInfo(a: PbehaviorInfo, b: PbehaviorInfo): boolean {
  return a.id === b.id && a.name === b.name && a.reason === b.reason && a.type === b.type && a.type_name === b.type_name && a.canonical_type === b.canonical_type;
}

/** An enabled pbehavior active on an entity, with the window it is in. */
interface Candidate {
  entry: IndexedPbehavior;
  window: Window;
}

/** What one beat did, for logs and tests. */
export interface PbehaviorAlarmReport {
  entered: number;
  left: number;
}

/**
 * Pbehaviors on alarms (REFERENCE §5.9 end): every `[engine] beat_interval`, each open alarm whose entity is under an
 * enabled active pbehavior gets a `pbhenter` step and `v.pbehavior_info`, and each one whose pbehavior is no longer
 * active (ended, deleted, disabled, no longer selecting the entity) a `pbhleave` step, through the alarm-change
 * service. Steps carry the boundary time: the start or end of the pbehavior's window when its schedule caused the
 * change, the beat's time when a write did (the beat is the upper bound of lateness). New alarms enter at creation
 * (`alarmCreated`, from the pipeline stage).
 */
@injectable()
export class PbehaviorAlarmEngine {
  /** Clock time of the previous beat: a window that started since then started during this beat's interval. */
  #previousBeatSec = -Infinity;
  /** Ids of the pbehaviors active at the previous beat, so that each activation is logged once. */
  #activeBefore = new Set<string>();

  constructor(
    @inject(PbehaviorIndex) private readonly index: PbehaviorIndex,
    @injectRef(alarmChangesRef) private readonly changes: AlarmChangeService,
    @injectRef(alarmReaderRef) private readonly alarms: AlarmReader,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
    @injectRef(kernelRefs.logger) private readonly logger: Logger,
  ) {}

  /** A new alarm on an entity already under a pbehavior enters it at the alarm's creation. Returns the pbehavior id. */
  async alarmCreated(alarm: Alarm): Promise<string | null> {
    await this.index.ready();
    const target = this.#chosen(alarm.d, undefined, this.clock.nowSec());
    if (!target) return null;
    const info = pbehaviorInfoOf(target.entry.record);
    const entered = await this.#apply(alarm.d, { type: 'pbhenter', pbehaviorInfo: info, timestamp: Math.max(alarm.t, target.window.start) });
    return entered ? info.id : null;
  }

  /** For dry runs: the pbehavior a new alarm would enter (`alarmCreated` without writing), or null. */
  async wouldEnter(alarm: Alarm): Promise<PbehaviorInfo | null> {
    await this.index.ready();
    const target = this.#chosen(alarm.d, undefined, this.clock.nowSec());
    return target ? pbehaviorInfoOf(target.entry.record) : null;
  }

  async beat(): Promise<PbehaviorAlarmReport> {
    const index = await this.index.ready();
    const now = this.clock.nowSec();
    const previous = this.#previousBeatSec;
    this.#previousBeatSec = now;
    const active: IndexedPbehavior[] = [];
    for (const entry of index.entries()) if (entry.schedule?.isActiveAt(now)) active.push(entry);
    const selected = new Set(active.filter((entry) => entry.record.enabled).flatMap((entry) => entry.record.eids));
    // The alarms that may enter (their entity is under an enabled active pbehavior) or leave (they are under one).
    const alarms = await this.alarms.find(
      { 'v.resolved': null, $or: [{ 'v.pbehavior_info': { $exists: true } }, { d: { $in: [...selected] } }] },
      { fields: { _id: 1, t: 1, d: 1, 'v.pbehavior_info': 1 } },
    );
    this.#logActivations(active, alarms);
    const report: PbehaviorAlarmReport = { entered: 0, left: 0 };
    for (const alarm of alarms) {
      try {
        await this.#update(alarm, now, previous, report);
      } catch (err) {
        this.logger.error({ err, alarm: alarm._id, entity: alarm.d }, 'pbehaviors: updating the pbehavior of an alarm failed');
      }
    }
    if (report.entered + report.left > 0) this.logger.debug({ ...report }, 'pbehaviors on alarms beat');
    return report;
  }

  async #update(alarm: Alarm, now: number, previous: number, report: PbehaviorAlarmReport): Promise<void> {
    // Read with only `v.pbehavior_info` projected: `v` is absent when the alarm has none.
    const current = (alarm.v as Alarm['v'] | undefined)?.pbehavior_info;
    const target = this.#chosen(alarm.d, current?.id, now);
    const wanted = target ? pbehaviorInfoOf(target.entry.record) : null;
    if (current && wanted && sameInfo(current, wanted)) return;
    let leftAt: number | null = null;
    if (current) {
      leftAt = this.#leaveTime(current, alarm.d, now, previous);
      if (await this.#apply(alarm.d, { type: 'pbhleave', pbehaviorId: current.id, timestamp: leftAt })) report.left++;
    }
    if (target && wanted) {
      const start = target.window.start;
      // Right after leaving another pbehavior; else at its window's start when the schedule made it active during
      // this beat's interval; else (created, enabled or changed by a write) now.
      const enteredAt = leftAt !== null ? Math.max(leftAt, start) : start >= previous ? start : now;
      if (await this.#apply(alarm.d, { type: 'pbhenter', pbehaviorInfo: wanted, timestamp: Math.max(alarm.t, enteredAt) })) report.entered++;
    }
  }

  /**
   * The pbehavior an entity is under now: the one it is already under while that one stays enabled and active, else
   * the enabled active one whose window started first (then the smallest id), or null.
   */
  #chosen(entityId: string, currentId: string | undefined, now: number): Candidate | null {
    const candidates: Candidate[] = [];
    for (const entry of this.index.on(entityId)) {
      if (!entry.record.enabled) continue;
      const window = entry.schedule?.windowAt(now);
      if (window && now <= window.end) candidates.push({ entry, window });
    }
    const kept = candidates.find((candidate) => candidate.entry.record._id === currentId);
    if (kept) return kept;
    candidates.sort((a, b) => a.window.start - b.window.start || (a.entry.record._id < b.entry.record._id ? -1 : 1));
    return candidates[0] ?? null;
  }

  /**
   * When the entity left `current`: the end of its window when that window ended during this beat's interval (and
   * after the entry), else now (deleted, disabled, changed, no longer selecting the entity).
   */
  #leaveTime(current: AlarmPbehaviorInfo, entityId: string, now: number, previous: number): number {
    const entry = this.index.get(current.id);
    const stillApplies = entry !== undefined && entry.record.enabled && this.index.on(entityId).has(entry);
    const window = stillApplies ? entry.schedule?.windowAt(now) : null;
    if (window && window.end < now && window.end >= Math.max(current.timestamp, previous)) return window.end;
    return now;
  }

  async #apply(entityId: string, operation: AlarmOperation): Promise<boolean> {
    const change = await this.changes.apply(entityId, { ...operation, author: 'system', initiator: 'system' }, {}, (reason) =>
      this.logger.debug({ entityId, operation: operation.type, reason }, 'pbehaviors: alarm unchanged'),
    );
    return change !== null;
  }

  /** Logs each pbehavior once when it becomes active, saying what it does to alarms. */
  #logActivations(active: readonly IndexedPbehavior[], alarms: readonly Alarm[]): void {
    const withAlarm = new Set(alarms.map((alarm) => alarm.d));
    for (const { record } of active) {
      if (this.#activeBefore.has(record._id)) continue;
      const about = { pbehavior: record._id, name: record.name };
      if (!record.enabled) {
        this.logger.info(about, 'pbehavior active but disabled: the alarms of its entities are left alone');
        continue;
      }
      const alarmCount = record.eids.filter((eid) => withAlarm.has(eid)).length;
      if (record.eids.length === 0) this.logger.info(about, 'pbehavior active but its filter selects no entity: no alarm enters it');
      else if (alarmCount === 0) this.logger.info({ ...about, entities: record.eids.length }, 'pbehavior active on entities without an open alarm: no alarm enters it');
      else this.logger.info({ ...about, entities: record.eids.length, alarms: alarmCount }, 'pbehavior active: the open alarms of its entities enter it');
    }
    this.#activeBefore = new Set(active.map((entry) => entry.record._id));
  }
}
