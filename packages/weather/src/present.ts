import { presentPbehavior, type Pbehavior, type PbehaviorOutput } from '@vigie/pbehaviors';
import { isJsonObject } from '@vigie/json';
import type { Tile } from './tiles.js';
import type { AlarmDoc, EntityDoc } from './weather-repository.js';

/** An alarm step (REFERENCE §6.1) as shown: its known fields only. */
export interface StepOutput {
  _t?: unknown;
  t?: unknown;
  a?: unknown;
  m?: unknown;
  val: unknown;
  role?: unknown;
  initiator?: unknown;
  data?: unknown;
}

export interface InfoOutput {
  description: unknown;
  value: unknown;
}

export interface WatcherEntry {
  entity_id: string;
  display_name: string;
  mfilter: string;
  infos: Record<string, InfoOutput>;
  watcher_pbehavior: PbehaviorOutput[];
  automatic_action_timer: number | null;
  state: StepOutput;
  status?: StepOutput | null;
  snooze?: StepOutput | null;
  ack?: StepOutput | null;
  connector?: unknown;
  connector_name?: unknown;
  component?: unknown;
  resource?: unknown;
  last_update_date?: unknown;
  isActionRequired: boolean;
  isAllEntitiesPaused: boolean;
  isWatcherPaused: boolean;
  tileColor: Tile['tileColor'];
  tileIcon: Tile['tileIcon'];
  tileSecondaryIcon: Tile['tileSecondaryIcon'];
}

export interface DependencyEntry {
  entity_id: string;
  name: string;
  source_type: string;
  infos: Record<string, InfoOutput>;
  state?: StepOutput;
  status?: StepOutput | null;
  snooze?: StepOutput | null;
  ack?: StepOutput | null;
  ticket?: StepOutput | null;
  connector?: unknown;
  connector_name?: unknown;
  component?: unknown;
  resource?: unknown;
  last_update_date?: unknown;
  alarm_creation_date?: unknown;
  alarm_display_name?: unknown;
  automatic_action_timer?: unknown;
  pbehavior: PbehaviorOutput[];
  linklist: { cat_name: string; links: unknown[] }[];
}

const stepFields = ['_t', 't', 'a', 'm', 'val', 'role', 'initiator'] as const;

/** A step's known fields, or null when the alarm has no such step. */
export function step(value: unknown, withData = false): StepOutput | null {
  if (!isJsonObject(value)) return null;
  const out: StepOutput = { val: value.val ?? null };
  for (const field of stepFields) if (value[field] !== undefined) (out as unknown as Record<string, unknown>)[field] = value[field];
  if (withData && value.data !== undefined) out.data = value.data;
  return out;
}

/** `{description, value}` of each info, as the spec shows them. */
export function presentInfos(infos: unknown): Record<string, InfoOutput> {
  const out: Record<string, InfoOutput> = {};
  if (!isJsonObject(infos)) return out;
  for (const [key, info] of Object.entries(infos)) {
    out[key] = isJsonObject(info) ? { description: info.description ?? '', value: info.value ?? null } : { description: '', value: info };
  }
  return out;
}

export function entityName(entity: EntityDoc): string {
  return typeof entity.name === 'string' ? entity.name : entity._id;
}

/** The pbehaviors of a weather entry: all active, without `eids` (the entity is the one the entry is about). */
export function presentActive(pbehaviors: readonly Pbehavior[]): PbehaviorOutput[] {
  return pbehaviors.map((pbehavior) => presentPbehavior(pbehavior, { isActive: true, isCurrentlyActive: true }, { withEids: false }));
}

/** The next automatic action on an alarm (`v.alarmfilter.next_run`), or null. */
export function nextRun(alarm: AlarmDoc | undefined): number | null {
  const alarmFilter = alarm?.v?.alarmfilter;
  return isJsonObject(alarmFilter) && typeof alarmFilter.next_run === 'number' ? alarmFilter.next_run : null;
}

const noAlarmState: StepOutput = { val: 0 };

export function watcherEntry(
  watcher: EntityDoc,
  alarm: AlarmDoc | undefined,
  pbehaviors: readonly Pbehavior[],
  automaticActionTimer: number | null,
  tile: Tile,
): WatcherEntry {
  const v = alarm?.v;
  return {
    entity_id: watcher._id,
    display_name: entityName(watcher),
    mfilter: typeof watcher.mfilter === 'string' ? watcher.mfilter : '',
    infos: presentInfos(watcher.infos),
    watcher_pbehavior: presentActive(pbehaviors),
    automatic_action_timer: automaticActionTimer,
    state: (v && step(v.state)) ?? noAlarmState,
    // Without an open alarm these keys are absent ("undefined" in the spec).
    ...(v && {
      status: step(v.status),
      snooze: step(v.snooze),
      ack: step(v.ack),
      connector: v.connector ?? null,
      connector_name: v.connector_name ?? null,
      component: v.component ?? null,
      resource: v.resource ?? null,
      last_update_date: v.last_update_date ?? null,
    }),
    ...tile,
  };
}

export function dependencyEntry(entity: EntityDoc, alarm: AlarmDoc | undefined, pbehaviors: readonly Pbehavior[]): DependencyEntry {
  const v = alarm?.v;
  return {
    entity_id: entity._id,
    name: entityName(entity),
    source_type: typeof entity.type === 'string' ? entity.type : '',
    infos: presentInfos(entity.infos),
    // Unlike the watcher entry, a dependency without an alarm has no `state` at all (spec: undefined when no alarm).
    ...(v && {
      state: step(v.state) ?? noAlarmState,
      status: step(v.status),
      snooze: step(v.snooze),
      ack: step(v.ack),
      ticket: step(v.ticket, true),
      connector: v.connector ?? null,
      connector_name: v.connector_name ?? null,
      component: v.component ?? null,
      ...(typeof v.resource === 'string' && v.resource !== '' ? { resource: v.resource } : {}),
      last_update_date: v.last_update_date ?? null,
      alarm_creation_date: v.creation_date ?? null,
      alarm_display_name: v.display_name ?? null,
      automatic_action_timer: nextRun(alarm),
    }),
    pbehavior: presentActive(pbehaviors),
    // Vigie has no link builders yet: the list is always empty.
    linklist: [],
  };
}
