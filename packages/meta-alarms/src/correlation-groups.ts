import { injectable } from 'tsyringe';
import { collectionRef, ErrorCodes, hasCode, injectRef, kernelRefs, type Collection, type Doc, type FeatureStore } from '@vigie/kernel';

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
  /** Counts the group's writes: a write is stored only over the revision it was decided on (`save`). */
  revision?: number;
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

  /**
   * Stores `group` if the stored group is still `read` (null: there was none): a compare-and-set on its revision, so
   * that nodes correlating alarms of one rule at the same time neither lose each other's members nor each start a
   * meta-alarm of the group. False when another write landed first: read the group again and decide again.
   */
  async save(group: CorrelationGroup, read: CorrelationGroup | null): Promise<boolean> {
    const next = { ...group, revision: (read?.revision ?? 0) + 1 };
    if (read === null) {
      try {
        await this.#groups.insertOne(next);
        return true;
      } catch (err) {
        if (hasCode(err, ErrorCodes.DuplicateKey)) return false;
        throw err;
      }
    }
    // Groups stored before revisions existed have none: `null` matches the missing field.
    return (await this.#groups.replaceOne({ _id: group._id, revision: read.revision ?? null }, next)).matchedCount === 1;
  }

  async delete(ruleId: string): Promise<void> {
    await this.#groups.deleteOne({ _id: ruleId });
  }
}
