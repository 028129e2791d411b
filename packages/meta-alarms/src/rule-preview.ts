import { injectable } from 'tsyringe';
import { injectRef, kernelRefs, type Clock } from '@vigie/kernel';
import { openAlarmPreviewRef, type Alarm, type OpenAlarmPreview, type PreviewAlarm } from '@vigie/alarms';
import { ruleProblem, type PatternAlarm, type PatternEntity } from '@vigie/patterns';
import type { PreviewPage } from '@vigie/rule-schemas';
import type { MetaAlarmRuleRecord } from './meta-alarm-rule-repository.js';
import { compileRule, type CompiledRule } from './rule-catalog.js';

/** A group the rule would have formed from the open alarms it selects. */
export interface PreviewGroup {
  /** The component (relation rules), or when the group opened (epoch seconds: grouping rules). */
  key: string;
  /** The first alarm's update time (epoch seconds). */
  open_time: number;
  alarms: number;
  /** Whether the group holds enough alarms for its meta-alarm (`threshold_count`; null for a rate, which needs the entity count). */
  reaches_threshold: boolean | null;
  /** Entity ids of its first alarms (at most 20). */
  entities: string[];
}

export interface MetaAlarmRulePreview extends PreviewPage<PreviewAlarm> {
  /** The window looked at for grouping rules: the last `time_interval` seconds (epoch seconds). */
  window_start: number | null;
  groups: PreviewGroup[];
  problem?: string;
}

/** Groups listed at most; entities listed per group at most. */
const maxGroups = 100;
const maxGroupEntities = 20;

/**
 * Meta-alarm rule previews: the open alarms the rule's patterns select (scope, alarm and entity patterns; event
 * patterns need an event and are not applied), and the groups it would form from them — `relation` by component,
 * `attribute` one group, `timebased`/`complex` the groups of its `time_interval` over the last window, in the order
 * of the alarms' last update, as the engine opens a new group for an alarm that comes after the interval.
 */
@injectable()
export class MetaAlarmRulePreviewService {
  constructor(
    @injectRef(openAlarmPreviewRef) private readonly openAlarms: OpenAlarmPreview,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
  ) {}

  async preview(record: MetaAlarmRuleRecord, limit: number): Promise<MetaAlarmRulePreview> {
    let rule: CompiledRule;
    try {
      rule = compileRule(record);
    } catch (err) {
      return { subject: 'alarms', count: 0, scanned: 0, data: [], window_start: null, groups: [], problem: ruleProblem(err) };
    }
    const grouping = record.type === 'timebased' || record.type === 'complex';
    const windowStart = grouping ? this.clock.nowSec() - rule.intervalSec : null;
    const selected: Alarm[] = [];
    const page = await this.openAlarms.select({
      limit,
      needsEntity: true,
      selects: (alarm, entity) => {
        const chosen =
          rule.scope.matches(entity as PatternEntity | undefined) &&
          rule.alarmPatterns.every((patterns) => patterns.matches(alarm as unknown as PatternAlarm)) &&
          rule.entityPatterns.matches(entity as PatternEntity | undefined) &&
          (windowStart === null || alarm.v.last_update_date >= windowStart);
        if (chosen) selected.push(alarm);
        return chosen;
      },
    });
    return { ...page, window_start: windowStart, groups: groupsOf(rule, selected) };
  }
}

function groupsOf(rule: CompiledRule, alarms: Alarm[]): PreviewGroup[] {
  const groups: { key: string; members: Alarm[] }[] = [];
  switch (rule.record.type) {
    case 'relation': {
      const byComponent = new Map<string, Alarm[]>();
      for (const alarm of alarms) {
        const members = byComponent.get(alarm.v.component) ?? [];
        members.push(alarm);
        byComponent.set(alarm.v.component, members);
      }
      for (const [component, members] of byComponent) if (members.some((alarm) => alarm.v.resource !== undefined)) groups.push({ key: component, members });
      break;
    }
    case 'attribute':
      if (alarms.length > 0) groups.push({ key: rule.record._id, members: alarms });
      break;
    default: {
      const ordered = [...alarms].sort((a, b) => a.v.last_update_date - b.v.last_update_date || (a.d < b.d ? -1 : 1));
      let current: { key: string; members: Alarm[]; openTime: number } | null = null;
      for (const alarm of ordered) {
        const t = alarm.v.last_update_date;
        if (!current || t > current.openTime + rule.intervalSec) {
          current = { key: String(t), members: [], openTime: t };
          groups.push(current);
        }
        current.members.push(alarm);
      }
    }
  }
  const threshold = rule.threshold;
  return groups.slice(0, maxGroups).map(({ key, members }) => ({
    key,
    open_time: Math.min(...members.map((alarm) => alarm.v.last_update_date)),
    alarms: members.length,
    reaches_threshold: threshold === null ? true : threshold.kind === 'count' ? members.length >= threshold.count : null,
    entities: members.slice(0, maxGroupEntities).map((alarm) => alarm.d),
  }));
}
