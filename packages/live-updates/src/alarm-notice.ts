import type { Alarm } from '@vigie/alarms';

/** An alarm as the stream shows it: without its steps (`GET /api/v2/alarms/<id>` has them). */
export interface NoticeAlarm {
  _id: string;
  t: number;
  d: string;
  v: Record<string, unknown>;
}

/** What the alarm stream tells of one stored change. */
export interface AlarmNotice {
  type: 'create' | 'change' | 'resolve';
  alarm: NoticeAlarm;
  /**
   * The alarm before the change (null for a creation): a stream whose selection it matched and the changed alarm no
   * longer does is told that the alarm left it. Not sent to clients.
   */
  previous: NoticeAlarm | null;
}

function withoutSteps(alarm: Alarm): NoticeAlarm {
  const { steps: _steps, ...value } = alarm.v as unknown as Record<string, unknown>;
  return { _id: alarm._id, t: alarm.t, d: alarm.d, v: value };
}

export function alarmNotice(alarm: Alarm, previous: Alarm | null, created: boolean): AlarmNotice {
  const resolved = alarm.v.resolved;
  return {
    type: created ? 'create' : resolved !== null && resolved !== undefined ? 'resolve' : 'change',
    alarm: withoutSteps(alarm),
    previous: previous === null ? null : withoutSteps(previous),
  };
}

function isNoticeAlarm(value: unknown): value is NoticeAlarm {
  if (typeof value !== 'object' || value === null) return false;
  const alarm = value as Partial<NoticeAlarm>;
  return typeof alarm._id === 'string' && typeof alarm.d === 'string' && typeof alarm.t === 'number' && typeof alarm.v === 'object' && alarm.v !== null;
}

/** Whether a decoded broker message is a notice (another node's, or garbage on a shared exchange). */
export function isAlarmNotice(value: unknown): value is AlarmNotice {
  if (typeof value !== 'object' || value === null) return false;
  const notice = value as Partial<AlarmNotice>;
  return (
    (notice.type === 'create' || notice.type === 'change' || notice.type === 'resolve') &&
    isNoticeAlarm(notice.alarm) &&
    (notice.previous === null || isNoticeAlarm(notice.previous))
  );
}
