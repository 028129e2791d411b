import {
  AlarmStatus,
  maxLongOutputHistory,
  maxSteps,
  stateChangesBeforeCounter,
  type Alarm,
  type AlarmPbehaviorInfo,
  type AlarmStep,
  type AlarmTrigger,
  type AlarmValue,
} from './alarm.js';

/** What an operation may do to an alarm; events, beats and (later) rule engines all speak this language. */
export type AlarmOperationType =
  | 'check'
  | 'ack'
  | 'ackremove'
  | 'cancel'
  | 'uncancel'
  | 'comment'
  | 'done'
  | 'assocticket'
  | 'declareticket'
  | 'declareticketwebhook'
  | 'changestate'
  | 'keepstate'
  | 'snooze'
  | 'unsnooze'
  | 'resolve'
  | 'refreshstatus'
  // The alarm-filter engine (@vigie/alarm-filters): its bookkeeping, and the status tasks.
  | 'alarmfilter'
  | 'alarmfilterstatus'
  // The dynamic-infos engine (@vigie/dynamic-infos).
  | 'dynamicinfos'
  // Pbehaviors: the entity enters or leaves an active pbehavior (no trigger: REFERENCE §5.4 has none for them).
  | 'pbhenter'
  | 'pbhleave'
  // Meta-alarm correlation (REFERENCE §5.7).
  | 'metaalarm'
  | 'metaalarmattach';

/** The identity a check copies into the alarm it creates. */
export interface AlarmOrigin {
  connector: string;
  connector_name: string;
  component: string;
  resource?: string;
}

export interface AlarmOperation {
  type: AlarmOperationType;
  /** When it happened, epoch seconds (an event's timestamp); now when absent. */
  timestamp?: number;
  /** Step author; `<connector>.<connector_name>` for checks. */
  author?: string;
  /** Step message; for checks also the new output. */
  output?: string;
  /** Checks: the new long output. */
  longOutput?: string;
  /** Checks, changestate, keepstate: the state (0–3). */
  state?: number;
  /** assocticket, declareticket: the ticket number; declared tickets may carry data. */
  ticket?: string;
  ticketData?: Record<string, string>;
  /** Snooze length in seconds. */
  duration?: number;
  role?: string;
  /** `user` (operations sent by people), `system` (beats, engines), `external` (check events). */
  initiator?: string;
  /** Checks: identity of the alarm to create when the entity has none open. */
  origin?: AlarmOrigin;
  /**
   * Beats: apply only if still due when the alarm is read under the entity's lock (`resolve` — resolution after
   * `baggot_time` of OK, the cancel or done delay; `unsnooze` — the snooze end passed).
   */
  ifDue?: boolean;
  /**
   * alarmfilter: `run` records a run of filter `filter` at now (in `v.alarmfilter.runs`), only while it is still
   * due under the entity's lock (fewer than `repeat` runs, the last one at least `limitSec` ago); `nextRun` sets
   * `v.alarmfilter.next_run` (null: none planned). No step, no trigger.
   */
  alarmFilter?: { run?: { filter: string; repeat: number; limitSec: number }; nextRun?: number | null };
  /** alarmfilterstatus: the status moves one value up (1) or down (-1), with a statusinc/statusdec step. */
  statusShift?: 1 | -1;
  /** dynamicinfos: the whole `v.infos`, `{<rule id>: {<info name>: value}}`. No step, no trigger. */
  infos?: Record<string, Record<string, unknown>>;
  /** pbhenter: the pbehavior entered (its `timestamp` is set from the operation's). */
  pbehaviorInfo?: Omit<AlarmPbehaviorInfo, 'timestamp'>;
  /** pbhleave: the pbehavior left; the alarm is left alone when it is under another one. */
  pbehaviorId?: string;
  /** `metaalarm`: the correlation rule (`v.meta`); the alarm is created from `origin` when the entity has none open. */
  metaRule?: string;
  /** `metaalarm`: child entity ids to add to `v.children` (those already there are skipped). */
  children?: string[];
  /** `metaalarmattach`: the meta-alarm's entity id, added to the child's `v.parents`. */
  parent?: string;
  /**
   * Operations addressed to one alarm by its id (the action routes): applied only while it is still the entity's open
   * alarm, never to a newer alarm of the entity should it have been resolved in between.
   */
  alarmId?: string;
  /**
   * The id the alarm takes when the operation creates one (random otherwise): a meta-alarm's is chosen with its
   * entity, so that two nodes creating it at once store one alarm, the other node's operation then applying to it.
   */
  newAlarmId?: string;
}

/** The `[alarms]` knobs, in seconds. */
export interface LifecycleSettings {
  baggotTimeSec: number;
  cancelAutosolveDelaySec: number;
  doneAutosolveDelaySec: number;
  flappingFreqLimit: number;
  flappingIntervalSec: number;
  stealthyIntervalSec: number;
  enableLastEventDate: boolean;
  /** A snooze ends at its end even while the entity is under a pbehavior (`disable_action_snooze_delay_on_pbh`). */
  snoozeIgnoresPbehavior?: boolean;
}

export interface LifecycleEnvironment {
  /** The entity whose alarm this is (`d`). */
  entityId: string;
  nowSec: number;
  settings: LifecycleSettings;
  newId(): string;
  displayName(): string;
}

export type LifecycleResult =
  | { changed: true; alarm: Alarm; created: boolean; triggers: AlarmTrigger[] }
  | { changed: false; reason: string };

const unchanged = (reason: string): LifecycleResult => ({ changed: false, reason });

/**
 * Applies one operation to the entity's open alarm (or to none), returning the new alarm and the triggers of the
 * change, or why nothing changed. Pure: the caller stores the result, then emits the triggers.
 */
export function applyOperation(current: Alarm | null, operation: AlarmOperation, env: LifecycleEnvironment): LifecycleResult {
  if (operation.type === 'check') return current === null ? create(operation, env) : check(current, operation, env);
  if (operation.type === 'metaalarm' && current === null) return createMetaAlarm(operation, env);
  if (current === null) return unchanged(`no open alarm for a ${operation.type}`);
  if (operation.alarmId !== undefined && current._id !== operation.alarmId) return unchanged(`alarm ${operation.alarmId} is resolved`);
  const draft = new AlarmDraft(current, operation, env);
  const outcome = draft.apply();
  if (outcome !== null) return unchanged(outcome);
  return draft.result();
}

function create(operation: AlarmOperation, env: LifecycleEnvironment): LifecycleResult {
  const state = operation.state ?? 0;
  if (state === 0) return unchanged('an OK check creates no alarm');
  const origin = operation.origin;
  if (!origin) return unchanged('a check without origin cannot create an alarm');
  const t = operation.timestamp ?? env.nowSec;
  const author = operation.author ?? `${origin.connector}.${origin.connector_name}`;
  const message = operation.output ?? '';
  const stateStep: AlarmStep = { _t: 'stateinc', t, a: author, m: message, val: state, initiator: operation.initiator ?? 'external' };
  // `status` is replaced below, once the status rules have seen the new value.
  const value: AlarmValue = {
    state: stateStep,
    status: stateStep,
    steps: [stateStep],
    connector: origin.connector,
    connector_name: origin.connector_name,
    component: origin.component,
    ...(origin.resource !== undefined ? { resource: origin.resource } : {}),
    creation_date: env.nowSec,
    activation_date: env.nowSec,
    display_name: env.displayName(),
    initial_output: message,
    output: message,
    initial_long_output: operation.longOutput ?? '',
    long_output: operation.longOutput ?? '',
    long_output_history: operation.longOutput ? [operation.longOutput] : [],
    last_update_date: t,
    last_event_date: t,
    state_changes_since_status_update: 0,
    total_state_changes: 1,
    extra: {},
    infos: {},
    tags: [],
    parents: [],
    children: [],
  };
  const status = computeStatus(value, env);
  const statusStep: AlarmStep = { _t: 'statusinc', t, a: author, m: message, val: status, initiator: stateStep.initiator };
  value.status = statusStep;
  value.steps.push(statusStep);
  return { changed: true, alarm: { _id: operation.newAlarmId ?? env.newId(), t: env.nowSec, d: env.entityId, v: value }, created: true, triggers: ['create'] };
}

/** A new meta-alarm: a created alarm that also holds its rule and children; triggers `create` then `metaalarm`. */
function createMetaAlarm(operation: AlarmOperation, env: LifecycleEnvironment): LifecycleResult {
  if (operation.metaRule === undefined) return unchanged('a meta-alarm needs its rule');
  const created = create(operation, env);
  if (!created.changed) return created;
  const v = created.alarm.v;
  v.meta = operation.metaRule;
  v.children = [...new Set(operation.children ?? [])];
  return { ...created, triggers: [...created.triggers, 'metaalarm'] };
}

function check(current: Alarm, operation: AlarmOperation, env: LifecycleEnvironment): LifecycleResult {
  const draft = new AlarmDraft(current, operation, env);
  draft.check();
  return draft.touched ? draft.result() : unchanged('the check changes nothing');
}

/** The status rules of REFERENCE §6.1, in order: cancelled, flapping, stealthy, off, ongoing. */
export function computeStatus(value: AlarmValue, env: Pick<LifecycleEnvironment, 'nowSec' | 'settings'>): number {
  if (value.canceled) return AlarmStatus.cancelled;
  if (isFlapping(value, env)) return AlarmStatus.flapping;
  const state = Number(value.state.val ?? 0);
  if (state === 0 && isStealthy(value, env)) return AlarmStatus.stealthy;
  return state === 0 ? AlarmStatus.off : AlarmStatus.ongoing;
}

const stateChangeTypes = new Set(['stateinc', 'statedec', 'changestate']);

/** More than `flapping_freq_limit` state changes within `flapping_interval` (both 0 by default: never). */
function isFlapping(value: AlarmValue, { nowSec, settings }: Pick<LifecycleEnvironment, 'nowSec' | 'settings'>): boolean {
  if (settings.flappingIntervalSec <= 0 || settings.flappingFreqLimit <= 0) return false;
  let changes = 0;
  for (let i = value.steps.length - 1; i >= 0; i--) {
    const step = value.steps[i]!;
    if (nowSec - step.t >= settings.flappingIntervalSec) break;
    if (step._t === 'statecounter') changes += Number(step.val ?? 0);
    else if (stateChangeTypes.has(step._t)) changes++;
  }
  return changes > settings.flappingFreqLimit;
}

/** Back to OK after a non-OK state within `stealthy_interval` (0 by default: never). */
function isStealthy(value: AlarmValue, { nowSec, settings }: Pick<LifecycleEnvironment, 'nowSec' | 'settings'>): boolean {
  if (settings.stealthyIntervalSec <= 0) return false;
  for (let i = value.steps.length - 1; i >= 0; i--) {
    const step = value.steps[i]!;
    if (nowSec - step.t >= settings.stealthyIntervalSec) break;
    if (stateChangeTypes.has(step._t) && Number(step.val ?? 0) > 0) return true;
  }
  return false;
}

/** Why an open alarm is due for resolution now (`baggot`, `cancel`, `done`), or null. */
export function resolutionDue(alarm: Alarm, { nowSec, settings }: Pick<LifecycleEnvironment, 'nowSec' | 'settings'>): 'baggot' | 'cancel' | 'done' | null {
  const v = alarm.v;
  if (v.resolved !== undefined) return null;
  if (v.canceled) return nowSec - v.canceled.t >= settings.cancelAutosolveDelaySec ? 'cancel' : null;
  if (v.done && nowSec - v.done.t >= settings.doneAutosolveDelaySec) return 'done';
  const lastStep = v.steps[v.steps.length - 1];
  if (Number(v.state.val) === 0 && Number(v.status.val) === AlarmStatus.off && lastStep && nowSec - lastStep.t >= settings.baggotTimeSec) {
    return 'baggot';
  }
  return null;
}

/** A copy-on-write working copy of one alarm: the step list is copied once, steps themselves are never changed. */
class AlarmDraft {
  readonly #current: Alarm;
  readonly #operation: AlarmOperation;
  readonly #env: LifecycleEnvironment;
  readonly v: AlarmValue;
  readonly triggers: AlarmTrigger[] = [];
  readonly t: number;
  touched = false;
  #stepsCopied = false;
  /** Steps this change dropped to keep the cap. */
  #folded = 0;

  constructor(current: Alarm, operation: AlarmOperation, env: LifecycleEnvironment) {
    this.#current = current;
    this.#operation = operation;
    this.#env = env;
    this.v = { ...current.v };
    this.t = operation.timestamp ?? env.nowSec;
  }

  result(): LifecycleResult {
    const alarm: Alarm = { ...this.#current, v: this.v };
    if (this.#folded > 0) alarm.folded_steps = (this.#current.folded_steps ?? 0) + this.#folded;
    return { changed: true, alarm, created: false, triggers: this.triggers };
  }

  #step(type: string, extra: Partial<AlarmStep> = {}): AlarmStep {
    const op = this.#operation;
    return {
      _t: type,
      t: this.t,
      a: op.author ?? '',
      m: op.output ?? '',
      ...(op.role !== undefined ? { role: op.role } : {}),
      initiator: op.initiator ?? 'user',
      ...extra,
    };
  }

  #push(step: AlarmStep): void {
    if (!this.#stepsCopied) {
      this.v.steps = [...this.v.steps];
      this.#stepsCopied = true;
    }
    this.v.steps.push(step);
    // The cap keeps the first step (how the alarm began) and the most recent history.
    if (this.v.steps.length > maxSteps) this.#folded += this.v.steps.splice(1, this.v.steps.length - maxSteps).length;
    this.touched = true;
  }

  #changed(trigger?: AlarmTrigger): void {
    this.touched = true;
    this.v.last_update_date = this.t;
    if (trigger) this.triggers.push(trigger);
  }

  check(): void {
    const op = this.#operation;
    const v = this.v;
    const output = op.output ?? '';
    if (v.output !== output) {
      v.output = output;
      this.touched = true;
    }
    if (op.longOutput !== undefined && op.longOutput !== v.long_output) {
      v.long_output = op.longOutput;
      v.long_output_history = [...v.long_output_history, op.longOutput].slice(-maxLongOutputHistory);
      this.touched = true;
    }
    if (this.#env.settings.enableLastEventDate && v.last_event_date !== this.t) {
      v.last_event_date = this.t;
      this.touched = true;
    }
    const state = op.state ?? 0;
    // changestate/keepstate lock the state: only an OK check changes it again.
    const locked = v.state._t === 'changestate' && state !== 0;
    if (!locked && state !== Number(v.state.val)) {
      this.#changeState(state, state > Number(v.state.val) ? 'stateinc' : 'statedec');
      this.#updateStatus();
    }
  }

  #changeState(state: number, type: 'stateinc' | 'statedec' | 'changestate'): void {
    const v = this.v;
    const step = this.#step(type, { val: state, initiator: this.#operation.initiator ?? (type === 'changestate' ? 'user' : 'external') });
    v.state = step;
    v.total_state_changes += 1;
    v.state_changes_since_status_update += 1;
    if (type !== 'changestate' && v.state_changes_since_status_update > stateChangesBeforeCounter) this.#count(step);
    else this.#push(step);
    this.#changed(type === 'changestate' ? 'changestate' : type);
  }

  /** Past 20 state changes without a status change, further changes are counted in one `statecounter` step. */
  #count(step: AlarmStep): void {
    const last = this.v.steps[this.v.steps.length - 1];
    const previous = last?._t === 'statecounter' ? (last.statecounter ?? {}) : {};
    const counter: Record<string, number> = { ...previous };
    counter.statechanges = (counter.statechanges ?? 0) + 1;
    counter[step._t] = (counter[step._t] ?? 0) + 1;
    counter[`state:${String(step.val)}`] = (counter[`state:${String(step.val)}`] ?? 0) + 1;
    const counted: AlarmStep = { _t: 'statecounter', t: step.t, a: step.a, m: step.m, val: counter.statechanges, statecounter: counter };
    if (last?._t === 'statecounter') {
      if (!this.#stepsCopied) {
        this.v.steps = [...this.v.steps];
        this.#stepsCopied = true;
      }
      this.v.steps[this.v.steps.length - 1] = counted;
      this.touched = true;
    } else {
      this.#push(counted);
    }
  }

  #updateStatus(): void {
    const v = this.v;
    const status = computeStatus(v, this.#env);
    const previous = Number(v.status.val);
    if (status === previous) return;
    const type = status > previous ? 'statusinc' : 'statusdec';
    const step = this.#step(type, { val: status, initiator: this.#operation.initiator ?? (this.#operation.type === 'check' ? 'external' : 'user') });
    v.status = step;
    v.state_changes_since_status_update = 0;
    this.#push(step);
    this.#changed(type);
  }

  /**
   * pbhenter / pbhleave (REFERENCE §5.9 end): `v.pbehavior_info` and a step at the boundary time. Entering a
   * pbehavior while under another one leaves that one first (the original's pbhleaveandenter). Neither is a trigger
   * nor an update of `last_update_date`, as in the original.
   */
  #pbehavior(): string | null {
    const op = this.#operation;
    const v = this.v;
    const current = v.pbehavior_info;
    if (op.type === 'pbhleave') {
      if (!current) return 'the alarm is under no pbehavior';
      if (op.pbehaviorId !== undefined && current.id !== op.pbehaviorId) return `the alarm is under pbehavior ${current.id}, not ${op.pbehaviorId}`;
      delete v.pbehavior_info;
      this.#push(this.#pbehaviorStep('pbhleave', current));
      return null;
    }
    const entered = op.pbehaviorInfo;
    if (!entered) return 'pbhenter needs the pbehavior entered';
    if (current && samePbehaviorInfo(current, entered)) return `the alarm is already under pbehavior ${entered.id}`;
    if (current) this.#push(this.#pbehaviorStep('pbhleave', current));
    v.pbehavior_info = { timestamp: this.t, ...entered };
    this.#push(this.#pbehaviorStep('pbhenter', entered));
    return null;
  }

  #pbehaviorStep(type: 'pbhenter' | 'pbhleave', info: Omit<AlarmPbehaviorInfo, 'timestamp'>): AlarmStep {
    return this.#step(type, {
      a: this.#operation.author ?? 'system',
      m: `Pbehavior ${info.name}. Type: ${info.type_name}. Reason: ${info.reason}`,
      initiator: this.#operation.initiator ?? 'system',
      pbehavior_canonical_type: info.canonical_type,
    });
  }

  /**
   * Meta-alarm correlation on an open alarm: it becomes a meta-alarm of `metaRule` if it is none yet (trigger
   * `metaalarm`), gains the `children` it lacks and takes the output (trigger `metaalarmupdated`), and takes `state`
   * (the worst child state) with a state step. Returns why nothing changed, or null.
   */
  #metaAlarm(): string | null {
    const op = this.#operation;
    const v = this.v;
    const becomesMeta = typeof v.meta !== 'string';
    if (becomesMeta) {
      if (op.metaRule === undefined) return 'the alarm is not a meta-alarm';
      v.meta = op.metaRule;
      this.#changed('metaalarm');
    }
    const known = new Set(v.children);
    const added = [...new Set(op.children ?? [])].filter((child) => !known.has(child) && child !== this.#env.entityId);
    if (added.length > 0) {
      v.children = [...v.children, ...added];
      this.#changed(becomesMeta ? undefined : 'metaalarmupdated');
    }
    if (op.output !== undefined && op.output !== v.output) {
      v.output = op.output;
      this.touched = true;
    }
    const state = op.state;
    if (state !== undefined && Number.isInteger(state) && state >= 0 && state <= 3 && state !== Number(v.state.val)) {
      this.#changeState(state, state > Number(v.state.val) ? 'stateinc' : 'statedec');
      this.#updateStatus();
    }
    return this.touched ? null : 'the meta-alarm already has these children, output and state';
  }

  /** A child attached to a meta-alarm: the parent joins `v.parents` with a `metaalarmattach` step (no trigger). */
  #metaAlarmAttach(): string | null {
    const parent = this.#operation.parent;
    if (parent === undefined) return 'metaalarmattach needs the meta-alarm';
    if (parent === this.#env.entityId) return 'an alarm cannot be its own meta-alarm';
    if (this.v.parents.includes(parent)) return `the alarm is already a child of ${parent}`;
    this.v.parents = [...this.v.parents, parent];
    this.#push(this.#step('metaalarmattach'));
    this.#changed();
    return null;
  }

  /** Every operation but `check`; returns why nothing changed, or null. */
  apply(): string | null {
    const op = this.#operation;
    const v = this.v;
    switch (op.type) {
      case 'ack': {
        const step = this.#step('ack');
        v.ack = step;
        this.#push(step);
        this.#changed('ack');
        return null;
      }
      case 'ackremove': {
        if (!v.ack) return 'the alarm is not acknowledged';
        delete v.ack;
        this.#push(this.#step('ackremove'));
        this.#changed('ackremove');
        return null;
      }
      case 'cancel': {
        if (v.canceled) return 'the alarm is already cancelled';
        const step = this.#step('cancel');
        v.canceled = step;
        this.#push(step);
        this.#changed('cancel');
        this.#updateStatus();
        return null;
      }
      case 'uncancel': {
        if (!v.canceled) return 'the alarm is not cancelled';
        delete v.canceled;
        this.#push(this.#step('uncancel'));
        this.#changed('uncancel');
        this.#updateStatus();
        return null;
      }
      case 'comment':
        this.#push(this.#step('comment'));
        this.#changed('comment');
        return null;
      case 'done': {
        if (v.done) return 'the alarm is already done';
        const step = this.#step('done');
        v.done = step;
        this.#push(step);
        this.#changed('done');
        return null;
      }
      case 'assocticket':
      case 'declareticket':
      case 'declareticketwebhook': {
        const type = op.type === 'assocticket' ? 'assocticket' : 'declareticket';
        const step = this.#step(type, { val: op.ticket ?? '', ...(op.ticketData ? { data: op.ticketData } : {}) });
        v.ticket = step;
        this.#push(step);
        this.#changed(op.type);
        return null;
      }
      case 'changestate':
      case 'keepstate': {
        const state = op.state;
        if (state === undefined || !Number.isInteger(state) || state < 0 || state > 3) return `${op.type} needs a state from 0 to 3`;
        this.#changeState(state, 'changestate');
        this.#updateStatus();
        return null;
      }
      case 'snooze': {
        const duration = op.duration ?? 0;
        if (!(duration > 0)) return 'snooze needs a duration in seconds';
        const step = this.#step('snooze', { val: this.#env.nowSec + Math.floor(duration) });
        v.snooze = step;
        this.#push(step);
        this.#changed('snooze');
        return null;
      }
      case 'unsnooze': {
        if (!v.snooze) return 'the alarm is not snoozed';
        if (op.ifDue && Number(v.snooze.val) > this.#env.nowSec) return 'the snooze has not ended';
        if (op.ifDue && v.pbehavior_info && !this.#env.settings.snoozeIgnoresPbehavior) {
          return `the snooze waits for the end of pbehavior ${v.pbehavior_info.id}`;
        }
        delete v.snooze;
        this.#push(this.#step('unsnooze'));
        this.#changed('unsnooze');
        return null;
      }
      case 'resolve': {
        if (op.ifDue && resolutionDue({ ...this.#current, v }, this.#env) === null) return 'the alarm is not due for resolution';
        v.resolved = this.#env.nowSec;
        this.#changed('resolve');
        return null;
      }
      case 'refreshstatus':
        this.#updateStatus();
        return this.touched ? null : 'the status is unchanged';
      // --- alarm-filter engine (@vigie/alarm-filters) ---
      case 'alarmfilter':
        return this.#alarmFilter(op.alarmFilter ?? {});
      case 'alarmfilterstatus': {
        const shift = op.statusShift ?? 1;
        const status = Number(v.status.val) + shift;
        if (status < AlarmStatus.off || status > AlarmStatus.cancelled) return `the status cannot go ${shift > 0 ? 'above' : 'below'} ${String(v.status.val)}`;
        const type = shift > 0 ? 'statusinc' : 'statusdec';
        const step = this.#step(type, { val: status });
        v.status = step;
        v.state_changes_since_status_update = 0;
        this.#push(step);
        this.#changed(type);
        return null;
      }
      // --- dynamic-infos engine (@vigie/dynamic-infos) ---
      case 'dynamicinfos': {
        const infos = op.infos ?? {};
        if (JSON.stringify(v.infos ?? {}) === JSON.stringify(infos)) return 'the dynamic infos are unchanged';
        v.infos = infos;
        this.touched = true;
        return null;
      }
      case 'pbhenter':
      case 'pbhleave':
        return this.#pbehavior();
      case 'metaalarm':
        return this.#metaAlarm();
      case 'metaalarmattach':
        return this.#metaAlarmAttach();
      default:
        return `unknown operation ${String(op.type)}`;
    }
  }

  // --- alarm-filter engine (@vigie/alarm-filters) ---
  #alarmFilter(change: NonNullable<AlarmOperation['alarmFilter']>): string | null {
    const v = this.v;
    const stored = (typeof v.alarmfilter === 'object' && v.alarmfilter !== null ? v.alarmfilter : {}) as { runs?: Record<string, number[]>; next_run?: number | null };
    const runs = { ...(stored.runs ?? {}) };
    if (change.run) {
      const { filter, repeat, limitSec } = change.run;
      const previous = Array.isArray(runs[filter]) ? runs[filter] : [];
      if (previous.length >= repeat) return `alarm filter ${filter} already ran ${previous.length} time(s)`;
      if (previous.length > 0 && Math.max(...previous) + limitSec > this.#env.nowSec) return `alarm filter ${filter} ran less than ${limitSec}s ago`;
      runs[filter] = [...previous, this.#env.nowSec];
    }
    const next = {
      runs,
      next_run: change.nextRun !== undefined ? change.nextRun : (stored.next_run ?? null),
    };
    if (JSON.stringify(next) === JSON.stringify({ runs: stored.runs ?? {}, next_run: stored.next_run ?? null })) return 'the alarm filter runs are unchanged';
    v.alarmfilter = next;
    this.touched = true;
    return null;
  }
}

/** Whether two pbehavior infos name the same pbehavior with the same name, type and reason (entry time aside). */
function samePbehaviorInfo(a: Omit<AlarmPbehaviorInfo, 'timestamp'>, b: Omit<AlarmPbehaviorInfo, 'timestamp'>): boolean {
  return a.id === b.id && a.name === b.name && a.reason === b.reason && a.type === b.type && a.type_name === b.type_name && a.canonical_type === b.canonical_type;
}
