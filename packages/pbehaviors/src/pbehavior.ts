import type { Doc } from '@vigie/kernel';

export interface PbehaviorComment {
  _id: string;
  author: string;
  message: string;
}

/** The fields of a pbehavior. */
interface PbehaviorFields {
  _id: string;
  name: string;
  author: string;
  /** The entity filter as JSON text (a MongoDB query on `default_entities`). */
  filter: string;
  tstart: number;
  tstop: number;
  rrule: string | null;
  enabled: boolean;
  comments: PbehaviorComment[];
  connector: string;
  connector_name: string;
  type_: string;
  reason: string;
  timezone: string;
  exdate: number[];
  /** Ids of the entities the filter selects, kept current as entities change. */
  eids: string[];
}

/** A pbehavior as stored in `default_pbehavior` (the original's shape). */
export interface PbehaviorRecord extends Doc, PbehaviorFields {}

/** A pbehavior as other features see it: never to be modified. */
export type Pbehavior = Readonly<Omit<PbehaviorFields, 'comments' | 'exdate' | 'eids'>> & {
  readonly comments: readonly Readonly<PbehaviorComment>[];
  readonly exdate: readonly number[];
  readonly eids: readonly string[];
};

/** A pbehavior as the API shows it (`eids` may be left out of large listings). */
export interface PbehaviorOutput extends Omit<PbehaviorFields, 'eids'> {
  eids?: string[];
  isActive: boolean;
  is_currently_active: boolean;
}

export interface Activity {
  /** The original's `isActive` for this listing (see the README). */
  isActive: boolean;
  /** Active at the time of the request, recurrence included. */
  isCurrentlyActive: boolean;
}

/**
 * The API shape of a pbehavior. `withEids: false` leaves out the entity ids (weather entries: the entity is the one
 * the entry is about, and a broad filter can select tens of thousands of entities).
 */
export function presentPbehavior(pbehavior: Pbehavior, activity: Activity, options: { withEids?: boolean } = {}): PbehaviorOutput {
  return {
    _id: pbehavior._id,
    name: pbehavior.name,
    author: pbehavior.author,
    filter: pbehavior.filter,
    tstart: pbehavior.tstart,
    tstop: pbehavior.tstop,
    rrule: pbehavior.rrule,
    enabled: pbehavior.enabled,
    comments: pbehavior.comments.map((comment) => ({ _id: comment._id, author: comment.author, message: comment.message })),
    connector: pbehavior.connector,
    connector_name: pbehavior.connector_name,
    type_: pbehavior.type_,
    reason: pbehavior.reason,
    timezone: pbehavior.timezone,
    exdate: [...pbehavior.exdate],
    ...(options.withEids === false ? {} : { eids: [...pbehavior.eids] }),
    isActive: activity.isActive,
    is_currently_active: activity.isCurrentlyActive,
  };
}

/** The original's `isActive` of `pbehavior_byeid`: inside [tstart, tstop], recurrence, exdates and zone ignored. */
export function withinFirstWindow(pbehavior: Pbehavior, t: number): boolean {
  return pbehavior.tstart <= t && t <= pbehavior.tstop;
}
