import { inject, injectable } from 'tsyringe';
import { injectRef, kernelRefs, type Clock, type Logger } from '@vigie/kernel';
import { AlarmStatus, type Alarm } from './alarm.js';
import { AlarmChangeService } from './alarm-changes.js';
import { AlarmRepository } from './alarm-repository.js';
import { alarmsConfig, retentionSeconds, type AlarmsConfig } from './config.js';
import { computeStatus, resolutionDue, type AlarmOperation } from './lifecycle.js';

/** What one beat did, for logs and tests. */
export interface BeatReport {
  resolved: number;
  unsnoozed: number;
  statusesRefreshed: number;
  deleted: number;
}

/**
 * The alarms beat (every `[engine] beat_interval`): resolution after `baggot_time` of OK, after the cancel and done
 * delays; snooze ends (`unsnooze`); flapping and stealthy statuses that time made stale; deletion of alarms resolved
 * longer than `resolved_retention` ago. Each change goes through the change service, which checks again under the
 * entity's lock that it is still due.
 */
@injectable()
export class AlarmBeat {
  readonly #repository: AlarmRepository;
  readonly #changes: AlarmChangeService;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #retentionSec: number;

  constructor(
    @inject(AlarmRepository) repository: AlarmRepository,
    @inject(AlarmChangeService) changes: AlarmChangeService,
    @injectRef(kernelRefs.clock) clock: Clock,
    @injectRef(kernelRefs.logger) logger: Logger,
    @injectRef(alarmsConfig.ref) config: AlarmsConfig,
  ) {
    this.#repository = repository;
    this.#changes = changes;
    this.#clock = clock;
    this.#logger = logger;
    this.#retentionSec = retentionSeconds(config);
  }

  async run(): Promise<BeatReport> {
    const nowSec = this.#clock.nowSec();
    const settings = this.#changes.settings;
    const env = { nowSec, settings };
    const report: BeatReport = { resolved: 0, unsnoozed: 0, statusesRefreshed: 0, deleted: 0 };

    // A snooze that ended while the entity is under a pbehavior waits for the pbehavior's end (unless configured not to).
    const snoozed = await this.#repository.find({
      'v.resolved': null,
      'v.snooze.val': { $lte: nowSec },
      ...(settings.snoozeIgnoresPbehavior ? {} : { 'v.pbehavior_info': null }),
    });
    report.unsnoozed = await this.#each(snoozed, { type: 'unsnooze', ifDue: true });

    const stale = (await this.#repository.find({ 'v.resolved': null, 'v.status.val': { $in: [AlarmStatus.stealthy, AlarmStatus.flapping] } })).filter(
      (alarm) => computeStatus(alarm.v, env) !== Number(alarm.v.status.val),
    );
    report.statusesRefreshed = await this.#each(stale, { type: 'refreshstatus' });

    const candidates = await this.#repository.find({
      'v.resolved': null,
      $or: [{ 'v.state.val': 0 }, { 'v.canceled': { $exists: true } }, { 'v.done': { $exists: true } }],
    });
    report.resolved = await this.#each(
      candidates.filter((alarm) => resolutionDue(alarm, env) !== null),
      { type: 'resolve', ifDue: true },
    );

    if (this.#retentionSec > 0) report.deleted = await this.#repository.deleteResolvedUntil(nowSec - this.#retentionSec);
    if (report.resolved + report.unsnoozed + report.statusesRefreshed + report.deleted > 0) this.#logger.debug({ ...report }, 'alarms beat');
    return report;
  }

  async #each(alarms: readonly Alarm[], operation: Omit<AlarmOperation, 'author' | 'initiator'>): Promise<number> {
    let changed = 0;
    for (const alarm of alarms) {
      const change = await this.#changes.apply(alarm.d, { ...operation, author: 'system', initiator: 'system' });
      if (change) changed++;
    }
    return changed;
  }
}
