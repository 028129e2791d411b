import { collectionRef, type Doc } from '@vigie/kernel';

/** `v.state.val`: 0 info/ok, 1 minor, 2 major, 3 critical. */
export const AlarmState = { ok: 0, minor: 1, major: 2, critical: 3 } as const;

/** `v.status.val` (REFERENCE §6.1). "Resolved" is not a status: it is `v.resolved` being set. */
export const AlarmStatus = { off: 0, ongoing: 1, stealthy: 2, flapping: 3, cancelled: 4 } as const;

/** One entry of `v.steps` (and the current `v.state`, `v.status`, `v.ack`, …). */
export interface AlarmStep {
  /** Type: stateinc, statedec, statusinc, statusdec, changestate, statecounter, ack, ackremove, cancel, uncancel,
   *  comment, done, snooze, unsnooze, assocticket, declareticket, … */
  _t: string;
  /** Epoch seconds. */
  t: number;
  /** Author: `<connector>.<connector_name>` for steps made by check events, the user for operations. */
  a: string;
  /** Message: the event output. */
  m: string;
  /** State or status value, snooze end (epoch seconds), ticket number. */
  val?: number | string;
  role?: string;
  /** Who caused it: `user` (operations sent as events), `system` (beats, engines), `external` (check events). */
  initiator?: string;
  /** Ticket data (declared tickets). */
  data?: Record<string, string>;
  /** Counts of the state changes a `statecounter` step stands for. */
  statecounter?: Record<string, number>;
  /** `pbhenter`/`pbhleave` steps: the `canonical_type` of the pbehavior entered or left. */
  pbehavior_canonical_type?: string;
}

/**
 * `v.pbehavior_info`: the pbehavior the alarm's entity is under, set by `pbhenter` and removed by `pbhleave` (the
 * original's 4.x field names, with the `timestamp` of later versions).
 */
export interface AlarmPbehaviorInfo {
  /** When the entity entered the pbehavior (epoch seconds): the time of the `pbhenter` step. */
  timestamp: number;
  id: string;
  name: string;
  reason: string;
  /** The pbehavior's `type_`. */
  type: string;
  type_name: string;
  /** `maintenance`, `pause` or `inactive` (out of monitoring hours). */
  canonical_type: string;
}

export interface AlarmValue {
  state: AlarmStep;
  status: AlarmStep;
  steps: AlarmStep[];
  ack?: AlarmStep;
  canceled?: AlarmStep;
  done?: AlarmStep;
  snooze?: AlarmStep;
  ticket?: AlarmStep;
  connector: string;
  connector_name: string;
  component: string;
  /** Absent for component and connector alarms. */
  resource?: string;
  creation_date: number;
  activation_date: number;
  display_name: string;
  initial_output: string;
  output: string;
  initial_long_output: string;
  long_output: string;
  long_output_history: string[];
  last_update_date: number;
  last_event_date: number;
  /** Epoch seconds; absent while the alarm is open. */
  resolved?: number;
  state_changes_since_status_update: number;
  total_state_changes: number;
  extra: Record<string, unknown>;
  infos: Record<string, unknown>;
  tags: string[];
  parents: string[];
  children: string[];
  /** The pbehavior the entity is under; absent when none. */
  pbehavior_info?: AlarmPbehaviorInfo;
  [field: string]: unknown;
}

/** A document of `periodical_alarm`: `_id` a uuid, `t` the creation time, `d` the entity id. */
export interface Alarm extends Doc {
  _id: string;
  t: number;
  d: string;
  v: AlarmValue;
  /** Bumped by every stored change; a write expecting another revision lost a race and is retried. Not shown. */
  revision?: number;
  /** Queue ids of the last events applied to this alarm, stored with the change itself (idempotency). Not shown. */
  applied_events?: string[];
  /**
   * The event of the last event-caused change and its triggers, emitted again when that event is redelivered after
   * a crash (the crash may have come between storing the change and emitting them). Not shown.
   */
  last_change?: { event: string; triggers: AlarmTrigger[] };
  /**
   * The newest event id applied to this alarm, per accepting node (ids of one node increase in acceptance order and
   * one entity's events are applied in that order). A redelivered event at or below its node's mark was applied
   * before the crash even when it fell out of `applied_events`. Not shown.
   */
  applied_marks?: Record<string, string>;
  /**
   * Unique to the write that stored this version of the alarm: a writer whose compare-and-set lost a race in a group
   * commit tells its write from another node's identical one (the same change made in the same second). Not shown.
   */
  write_token?: string;
  /** Steps dropped by the 2,000-step cap over the alarm's life (after its first step); the timeline reports it. Not shown. */
  folded_steps?: number;
}

export const alarmCollection = collectionRef<Alarm>('periodical_alarm');

/** Most steps one alarm keeps; the oldest after the first are dropped beyond it. */
export const maxSteps = 2000;

/** State changes since the last status change after which further changes are counted in one `statecounter` step. */
export const stateChangesBeforeCounter = 20;

/** Entries kept in `v.long_output_history`. */
export const maxLongOutputHistory = 100;

/** Trigger names (REFERENCE §5.4) the alarm lifecycle emits. */
export type AlarmTrigger =
  | 'create'
  | 'stateinc'
  | 'statedec'
  | 'statusinc'
  | 'statusdec'
  | 'ack'
  | 'ackremove'
  | 'assocticket'
  | 'declareticket'
  | 'declareticketwebhook'
  | 'cancel'
  | 'uncancel'
  | 'changestate'
  | 'comment'
  | 'done'
  | 'snooze'
  | 'unsnooze'
  | 'resolve'
  // Meta-alarm correlation (REFERENCE §5.7): an alarm became a meta-alarm / a meta-alarm got new children.
  | 'metaalarm'
  | 'metaalarmupdated';
