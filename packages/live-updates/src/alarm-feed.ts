import type { AlarmChangedEvent } from '@vigie/alarms';
import { alarmNotice } from './alarm-notice.js';
import type { NoticeRelay } from './notice-relay.js';

/** Each stored alarm change of this node, handed to the relay (which brings it to every node's streams). */
export function onAlarmChanged(relay: NoticeRelay): (payload: AlarmChangedEvent) => void {
  return ({ alarm, previous, created }) => relay.send(alarmNotice(alarm, previous, created));
}
