import { injectable } from 'tsyringe';
import { collectionRef, ErrorCodes, injectRef, kernelRefs, hasCode, type Collection, type Doc, type FeatureStore } from '@vigie/kernel';

/**
 * What the idle-rule engine remembers of an entity (collection `idle_rule_marks`, one document per entity): the
 * time of its last event, and the alarm each rule already fired on. Every event clears `fired`, so a rule fires
 * again only after a new idle period.
 */
export const idleMarkCollection = collectionRef<IdleMark>('idle_rule_marks');

export interface IdleMark extends Doc {
  /** The entity id. */
  _id: string;
  /** Epoch seconds of the last event on the entity (acceptance time). */
  last_event?: number;
  /** Rule key (`ruleKey`) ⇒ the id of the alarm the rule fired on. */
  fired?: Record<string, string>;
}

/** A rule id as a field name (ids may hold dots or dollars). */
export function ruleKey(ruleId: string): string {
  return Buffer.from(ruleId).toString('base64url');
}

@injectable()
export class IdleMarkRepository {
  readonly #marks: Collection<IdleMark>;

  constructor(@injectRef(kernelRefs.store) store: FeatureStore) {
    this.#marks = store.collection(idleMarkCollection);
  }

  async byEntity(entityIds: readonly string[]): Promise<Map<string, IdleMark>> {
    if (entityIds.length === 0) return new Map();
    const marks = await this.#marks.find({ _id: { $in: [...entityIds] } });
    return new Map(marks.map((mark) => [mark._id, mark]));
  }

  /** An event on the entity: its time, and no rule fired since. */
  async eventSeen(entityId: string, atSec: number): Promise<void> {
    await this.#marks.updateOne({ _id: entityId }, { $set: { last_event: atSec, fired: {} } }, { upsert: true });
  }

  /**
   * Marks the rule as fired on the alarm unless it already is; true when this call marked it. A compare-and-set, so
   * when several nodes beat at once only one applies the rule.
   */
  async claim(entityId: string, ruleId: string, alarmId: string): Promise<boolean> {
    const field = `fired.${ruleKey(ruleId)}`;
    try {
      const result = await this.#marks.updateOne({ _id: entityId, [field]: { $ne: alarmId } }, { $set: { [field]: alarmId } }, { upsert: true });
      return result.modifiedCount === 1 || result.upsertedId !== null;
    } catch (err) {
      // The mark exists with this alarm already: the upsert collided with it.
      if (hasCode(err, ErrorCodes.DuplicateKey)) return false;
      throw err;
    }
  }

  /** Forgets the entities that have no open alarm any more. */
  async forgetAllBut(entityIds: ReadonlySet<string>): Promise<number> {
    const stale = (await this.#marks.find({}, { projection: { _id: 1 } })).map((mark) => mark._id).filter((id) => !entityIds.has(id));
    if (stale.length === 0) return 0;
    return (await this.#marks.deleteMany({ _id: { $in: stale } })).deletedCount;
  }
}
