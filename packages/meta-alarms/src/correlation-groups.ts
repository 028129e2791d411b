import { injectable } from 'tsyringe';
import { collectionRef, injectRef, kernelRefs, type Collection, type Doc, type FeatureStore } from '@vigie/kernel';

/** The collection, owned by the meta-alarms feature, that keeps the correlation engine's open groups. */
export const correlationGroupCollection = collectionRef<CorrelationGroup>('meta_alarm_groups');

/** One alarm counted in a group. */
export interface GroupMember {
  alarm: string;
  entity: string;
  /** When the alarm joined (its last update, epoch seconds). */
  t: number;
}

/**
 * The open group of one rule (`_id` = the rule id): the alarms gathered since `open_time` and, once the rule fired,
 * the entity of the meta-alarm the group feeds. Kept in the store so that a restart (or a crash) keeps the counts
 * and the window of every group.
 */
export interface CorrelationGroup extends Doc {
  _id: string;
  open_time: number;
  members: GroupMember[];
  /** The meta-alarm's entity, chosen when the rule fired (the meta-alarm may still be on its way in the pipeline). */
  meta_entity?: string;
}

@injectable()
export class CorrelationGroupRepository {
  readonly #groups: Collection<CorrelationGroup>;

  constructor(@injectRef(kernelRefs.store) store: FeatureStore) {
    this.#groups = store.collection(correlationGroupCollection);
  }

  get(ruleId: string): Promise<CorrelationGroup | null> {
    return this.#groups.findOne({ _id: ruleId });
  }

  async save(group: CorrelationGroup): Promise<void> {
    await this.#groups.replaceOne({ _id: group._id }, group, { upsert: true });
  }

  async delete(ruleId: string): Promise<void> {
    await this.#groups.deleteOne({ _id: ruleId });
  }
}
