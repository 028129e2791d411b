import { inject, injectable } from 'tsyringe';
import { HttpError } from '@vigie/kernel';
import type { InferType } from 'yup';
import type { Alarm, AlarmStep } from './alarm.js';
import { AlarmRepository } from './alarm-repository.js';
import type { timelineQuerySchema } from './schemas.js';

export type TimelineQuery = InferType<typeof timelineQuerySchema>;

/** A step of the timeline; with the children of a meta-alarm, each step names its alarm and entity. */
export type TimelineStep = AlarmStep & { alarm_id?: string; entity_id?: string };

export interface TimelinePage {
  steps: TimelineStep[];
  /** Steps matching the query (all pages). */
  total: number;
  page: number;
  limit: number;
  /**
   * Steps the 2,000-step cap dropped (between each alarm's first step and its oldest kept one): 0 when the history is
   * whole.
   */
  folded_steps: number;
}

/** The paged history of one alarm (`GET /api/v2/alarms/<id>/steps`), optionally with its meta-alarm children's. */
@injectable()
export class AlarmTimeline {
  constructor(@inject(AlarmRepository) private readonly alarms: AlarmRepository) {}

  async page(id: string, query: TimelineQuery): Promise<TimelinePage> {
    const alarm = await this.alarms.get(id);
    if (!alarm) throw new HttpError(404, `No alarm with id ${id}`, { name: 'not_found' });
    const children = query.with_children && alarm.v.children.length > 0 ? await this.alarms.find({ d: { $in: alarm.v.children }, 'v.parents': alarm.d }) : [];
    const sources: Alarm[] = [alarm, ...children];
    const types = query.type === undefined ? null : new Set(query.type.split(',').map((type) => type.trim()).filter((type) => type !== ''));
    let steps: TimelineStep[] = [];
    for (const source of sources) {
      for (const step of source.v.steps) {
        if (types && !types.has(step._t)) continue;
        steps.push(children.length > 0 ? { ...step, alarm_id: source._id, entity_id: source.d } : step);
      }
    }
    // Each alarm's steps are in time order; merged ones are sorted by time (stable: the parent's first on a tie).
    if (children.length > 0) steps.sort((a, b) => a.t - b.t);
    if (query.sort === 'desc') steps = steps.reverse();
    const start = (query.page - 1) * query.limit;
    return {
      steps: steps.slice(start, start + query.limit),
      total: steps.length,
      page: query.page,
      limit: query.limit,
      folded_steps: sources.reduce((sum, source) => sum + (source.folded_steps ?? 0), 0),
    };
  }
}
