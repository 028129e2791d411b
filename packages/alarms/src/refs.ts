import { eventRef, extensionPointRef, serviceRef } from '@vigie/kernel';
import type { AlarmChangedEvent, AlarmChangeService, AlarmTriggerEvent } from './alarm-changes.js';
import type { OpenAlarmPreview } from './alarm-preview.js';
import type { AlarmReader } from './alarm-reader.js';
import type { AlarmSearch } from './alarm-search.js';

/** Every alarm write of the other engines goes through this service (locks, idempotency, triggers). */
export const alarmChangesRef = serviceRef<AlarmChangeService>('alarms.changes');

/** Reads of the stored alarms. */
export const alarmReaderRef = serviceRef<AlarmReader>('alarms.reader');

/** What the list's `search` means, for the other readers of alarms (the export, the live stream). */
export const alarmSearchRef = serviceRef<AlarmSearch>('alarms.search');

/** The open alarms a rule selects now (the rule previews of every feature). */
export const openAlarmPreviewRef = serviceRef<OpenAlarmPreview>('alarms.openAlarmPreview');

/** An alarm change was stored; emitted once per trigger (REFERENCE §5.4 names), in order. */
export const alarmTriggerEvent = eventRef<AlarmTriggerEvent>('alarms.trigger');

/**
 * The triggers of an event's change emitted again because the event was redelivered after a crash: the change
 * was stored before the crash, and its `alarms.trigger` may or may not have reached the subscribers then.
 * For subscribers that record per (`eventId`, trigger) and so can take a trigger twice (the webhooks).
 */
export const alarmTriggerRedeliveredEvent = eventRef<AlarmTriggerEvent>('alarms.trigger.redelivered');

/**
 * An alarm was stored by a change: once per change, after its triggers, whether or not it has any (a change of
 * output has none). For observers of every change (the live stream).
 */
export const alarmChangedEvent = eventRef<AlarmChangedEvent>('alarms.changed');

/**
 * What a subscriber of `alarms.trigger` would do with a change, for dry runs (`POST /api/v2/event/dry-run`): the
 * actions, webhooks… it would fire, in words, without firing them. Contributed by the features that subscribe.
 */
export interface TriggerDryRun {
  name: string;
  wouldFire(trigger: AlarmTriggerEvent): Promise<string[]>;
}

/** Extension point declared by the alarms feature; its stage's dry run asks each contribution about each trigger. */
export const triggerDryRunPoint = extensionPointRef<TriggerDryRun>('alarms.trigger-dry-runs');
