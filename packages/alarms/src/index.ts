export { alarmsFeature } from './feature.js';
export { alarmsConfigSchema, lifecycleSettings, type AlarmsConfig } from './config.js';
export {
  AlarmState,
  AlarmStatus,
  alarmCollection,
  maxSteps,
  stateChangesBeforeCounter,
  type Alarm,
  type AlarmPbehaviorInfo,
  type AlarmStep,
  type AlarmTrigger,
  type AlarmValue,
} from './alarm.js';
export { AlarmChangeService, type AlarmChangedEvent, type AlarmTriggerEvent, type AppliedChange, type ChangeCause } from './alarm-changes.js';
export { AlarmReader } from './alarm-reader.js';
export { type AlarmListQuery, type AlarmOutput } from './alarm-list.js';
export { alarmListFilter, AlarmSearch, type AlarmSelection, type LiveAlarmSearch, type SearchedAlarm } from './alarm-search.js';
export { alarmListQuerySchema } from './schemas.js';
export { triggerDryRunPoint, type TriggerDryRun } from './refs.js';
export { OpenAlarmPreview, previewAlarm, type OpenAlarmSelection, type PreviewAlarm } from './alarm-preview.js';
export { alarmChangedEvent, alarmChangesRef, alarmReaderRef, alarmSearchRef, openAlarmPreviewRef, alarmTriggerEvent, alarmTriggerRedeliveredEvent } from './refs.js';
export { alarmChangeDataKey, operationOf } from './alarm-stage.js';
export {
  applyOperation,
  computeStatus,
  resolutionDue,
  type AlarmOperation,
  type AlarmOperationType,
  type AlarmOrigin,
  type LifecycleSettings,
} from './lifecycle.js';
