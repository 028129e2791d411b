import { inject, injectable } from 'tsyringe';
import { checkedCreation } from './pbehavior-input.js';
import { PbehaviorService } from './pbehavior-service.js';

/** A pbehavior on one entity, as rule engines (actions, idle rules) ask for it. */
export interface EntityPbehaviorSpec {
  name: string;
  author: string;
  /** Epoch seconds; `tstop` > `tstart`. */
  tstart: number;
  tstop: number;
  /** `type_` (e.g. `Pause`); `generic` when absent. */
  type?: string;
  reason?: string;
  rrule?: string | null;
  comments?: { author: string; message: string }[];
}

/**
 * Creates pbehaviors for other features (exported as `pbehaviorCreation`), with the same validation, `eids`
 * computation and in-memory index update as `POST /api/v2/pbehavior`. Invalid specs throw the route's 400 errors.
 */
@injectable()
export class PbehaviorCreation {
  constructor(@inject(PbehaviorService) private readonly service: PbehaviorService) {}

  /** A pbehavior whose filter selects exactly `entityId`; resolves with its id. */
  forEntity(entityId: string, spec: EntityPbehaviorSpec): Promise<string> {
    return this.service.create(
      checkedCreation({
        name: spec.name,
        author: spec.author,
        filter: { _id: entityId },
        tstart: spec.tstart,
        tstop: spec.tstop,
        ...(spec.type ? { type_: spec.type } : {}),
        ...(spec.reason !== undefined ? { reason: spec.reason } : {}),
        ...(spec.rrule ? { rrule: spec.rrule } : {}),
        ...(spec.comments ? { comments: spec.comments } : {}),
      }),
      { user: spec.author, replaceExpired: false },
    );
  }
}
