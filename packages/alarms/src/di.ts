import { defineBridge, provide } from '@vigie/kernel';
import { entityInfosSearchRef, entityRepositoryRef } from '@vigie/context-graph';
import { engineSettingsRef } from '@vigie/events';
import { AlarmActionService } from './alarm-actions.js';
import { AlarmBeat } from './alarm-beat.js';
import { AlarmTimeline } from './alarm-timeline.js';
import { AlarmChangeService } from './alarm-changes.js';
import { AlarmListService } from './alarm-list.js';
import { OpenAlarmPreview } from './alarm-preview.js';
import { AlarmReader } from './alarm-reader.js';
import { AlarmRepository } from './alarm-repository.js';
import { AlarmSearch } from './alarm-search.js';
import { alarmChangesRef, alarmReaderRef, alarmSearchRef, openAlarmPreviewRef } from './refs.js';

/** The alarms feature's class graph (tsyringe); the feature resolves its classes, dependents see its exports. */
export const alarmsBridge = defineBridge({
  imports: [entityRepositoryRef, entityInfosSearchRef, engineSettingsRef],
  singletons: [AlarmRepository, AlarmChangeService, AlarmReader, AlarmBeat, AlarmListService, AlarmSearch, AlarmActionService, AlarmTimeline, OpenAlarmPreview],
  exports: [provide(alarmChangesRef, AlarmChangeService), provide(alarmReaderRef, AlarmReader), provide(openAlarmPreviewRef, OpenAlarmPreview), provide(alarmSearchRef, AlarmSearch)],
});
