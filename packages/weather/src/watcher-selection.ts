import { inject, injectable } from 'tsyringe';
import type { PatternEntity } from '@vigie/patterns';
import type { Selector } from './watcher-selector.js';
import { WeatherRepository, type EntityDoc } from './weather-repository.js';

/** Entities read at once when a pattern selection scans the whole context graph. */
const scanPage = 2000;

/** Which entities watchers select, read from the context graph. */
@injectable()
export class WatcherSelection {
  constructor(@inject(WeatherRepository) private readonly repository: WeatherRepository) {}

  /** Everything each selector selects (ids), by watcher id: one query per `mfilter`, one scan for all the patterns. */
  async all(selectors: ReadonlyMap<string, Selector>): Promise<Map<string, Set<string>>> {
    const selected = new Map<string, Set<string>>([...selectors.keys()].map((id) => [id, new Set<string>()]));
    for (const [watcherId, selector] of selectors) {
      if (!selector.mfilter) continue;
      for (const entity of await this.repository.entityIds(selector.mfilter)) selected.get(watcherId)!.add(entity);
    }
    const patterned = [...selectors].filter(([, selector]) => selector.patterns !== undefined);
    if (patterned.length === 0) return selected;
    let after: string | undefined;
    for (;;) {
      const page = await this.repository.entities(after === undefined ? {} : { _id: { $gt: after } }, { sort: { _id: 1 }, limit: scanPage });
      for (const entity of page) {
        for (const [watcherId, selector] of patterned) if (selector.patterns!.matches(entity as PatternEntity)) selected.get(watcherId)!.add(entity._id);
      }
      if (page.length < scanPage) return selected;
      after = page[page.length - 1]!._id;
    }
  }

  /** Which of the entities `ids` (as `entities` holds those that exist) each selector selects. */
  async among(selectors: ReadonlyMap<string, Selector>, ids: readonly string[], entities: ReadonlyMap<string, EntityDoc>): Promise<Map<string, Set<string>>> {
    const selected = new Map<string, Set<string>>();
    for (const [watcherId, selector] of selectors) {
      const chosen = new Set<string>();
      if (selector.patterns) for (const entity of entities.values()) if (selector.patterns.matches(entity as PatternEntity)) chosen.add(entity._id);
      if (selector.mfilter && entities.size > 0) {
        for (const id of await this.repository.entityIds({ $and: [selector.mfilter, { _id: { $in: [...ids] } }] })) chosen.add(id);
      }
      selected.set(watcherId, chosen);
    }
    return selected;
  }
}
