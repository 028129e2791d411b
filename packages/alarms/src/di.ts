import { defineBridge, provide } from '@vigie/kernel';
import { entityRepositoryRef } from '@vigie/context-graph';
import { AlarmBeat } from './alarm-beat.js';
import { AlarmChangeService } from './alarm-changes.js';
import { AlarmListService } from './alarm-list.js';
import { OpenAlarmPreview } from './alarm-preview.js';
import { AlarmReader } from './alarm-reader.js';
import { AlarmRepository } from './alarm-repository.js';
import { alarmChangesRef, alarmReaderRef, openAlarmPreviewRef } from './refs.js';

/** The alarms feature's class graph (tsyringe); the feature resolves its classes, dependents see its exports. */
export const alarmsBridge = defineBridge({
  imports: [entityRepositoryRef],
  singletons: [AlarmRepository, AlarmChangeService, AlarmReader, AlarmBeat, AlarmListService, OpenAlarmPreview],
  exports: [provide(alarmChangesRef, AlarmChangeService), provide(alarmReaderRef, AlarmReader), provide(openAlarmPreviewRef, OpenAlarmPreview)],
});
