import { inject, injectable } from 'tsyringe';
import { injectRef } from '@vigie/kernel';
import { entityRepositoryRef, type Entity, type EntityRepository } from '@vigie/context-graph';
import { PreviewCollector, type PreviewPage } from '@vigie/rule-schemas';
import type { Alarm } from './alarm.js';
import { AlarmRepository } from './alarm-repository.js';

/** An open alarm as rule previews list it. */
export interface PreviewAlarm {
  _id: string;
  entity_id: string;
  connector: string;
  connector_name: string;
  component: string;
  resource: string;
  state: number;
  status: number;
  creation_date: number;
  last_event_date: number;
  last_update_date: number;
}

export function previewAlarm(alarm: Alarm): PreviewAlarm {
  const v = alarm.v;
  return {
    _id: alarm._id,
    entity_id: alarm.d,
    connector: v.connector,
    connector_name: v.connector_name,
    component: v.component,
    resource: v.resource ?? '',
    state: v.state.val as number,
    status: v.status.val as number,
    creation_date: v.creation_date,
    last_event_date: v.last_event_date,
    last_update_date: v.last_update_date,
  };
}

/** How a rule selects open alarms: `selects` is the rule's own matcher (the engine's compiled patterns). */
export interface OpenAlarmSelection<Extra extends object> {
  /** The first page's size. */
  limit: number;
  /** Whether `selects` or `annotate` read the alarm's entity (entity patterns); without it the entities are not read. */
  needsEntity: boolean;
  selects(alarm: Alarm, entity: Entity | undefined): boolean;
  /** What the rule adds to each listed alarm (when an idle rule fires on it, the infos a rule sets). */
  annotate?(alarm: Alarm, entity: Entity | undefined): Extra;
}

/** Open alarms are scanned in slices of this many, each with its entities read at once. */
const sliceSize = 5000;

/**
 * The open alarms a rule selects now, for the rule previews of every feature (`POST …/preview`): counted over every
 * open alarm, the first page kept in creation order (then by entity id). Steps and long output history are not read.
 */
@injectable()
export class OpenAlarmPreview {
  constructor(
    @inject(AlarmRepository) private readonly alarms: AlarmRepository,
    @injectRef(entityRepositoryRef) private readonly entities: EntityRepository,
  ) {}

  async select<Extra extends object = object>(selection: OpenAlarmSelection<Extra>): Promise<PreviewPage<PreviewAlarm & Extra>> {
    const collector = new PreviewCollector<{ alarm: Alarm; entity: Entity | undefined }>('alarms', selection.limit, ({ alarm: a }, { alarm: b }) => a.t - b.t || (a.d < b.d ? -1 : a.d > b.d ? 1 : 0));
    // Unsorted: the collector keeps the page in order.
    const open = await this.alarms.find({ 'v.resolved': null }, { projection: { 'v.steps': 0, 'v.long_output_history': 0 } });
    for (let start = 0; start < open.length; start += sliceSize) {
      const slice = open.slice(start, start + sliceSize);
      const entities = selection.needsEntity ? await this.entities.getMany(slice.map((alarm) => alarm.d)) : undefined;
      for (const alarm of slice) {
        const entity = entities?.get(alarm.d);
        collector.offer(selection.selects(alarm, entity), () => ({ alarm, entity }));
      }
    }
    const page = collector.page();
    // The listed alarms are annotated whole (templates read the steps the scan left out).
    const whole = selection.annotate ? new Map((await this.alarms.find({ _id: { $in: page.data.map(({ alarm }) => alarm._id) } })).map((alarm) => [alarm._id, alarm])) : undefined;
    return {
      ...page,
      data: page.data.map(({ alarm, entity }) => ({ ...previewAlarm(alarm), ...(selection.annotate?.(whole?.get(alarm._id) ?? alarm, entity) as Extra) })),
    };
  }
}
