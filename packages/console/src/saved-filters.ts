import { randomUUID } from 'node:crypto';
import { injectable } from 'tsyringe';
import { collectionRef, HttpError, injectRef, kernelRefs, type Clock, type Doc, type FeatureStore, type Collection } from '@vigie/kernel';

/** Filters one user may keep: enough for every view of a shift, small enough to list at once. */
export const maxSavedFiltersPerUser = 100;

/** A view of the alarm list a user saved under a name: the URL query that holds the view. */
export interface SavedFilterRecord extends Doc {
  _id: string;
  /** The owner's user id: only they list, change or delete it. */
  user: string;
  name: string;
  /** The alarm list's URL query, without the leading `?`. */
  query: string;
  /** Epoch seconds. */
  created: number;
  updated: number;
}

export type SavedFilter = Omit<SavedFilterRecord, 'user'>;

export const savedFilterCollection = collectionRef<SavedFilterRecord>('console_saved_filters');

const present = ({ user: _owner, ...filter }: SavedFilterRecord): SavedFilter => filter;

const missing = (id: string) => new HttpError(404, `No saved filter with id ${id}`);

/** Each user's saved filters. Another user's filter is answered as missing, so that ids reveal nothing. */
@injectable()
export class SavedFilters {
  readonly #documents: Collection<SavedFilterRecord>;

  constructor(
    @injectRef(kernelRefs.store) store: FeatureStore,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
  ) {
    this.#documents = store.collection(savedFilterCollection);
  }

  async list(user: string): Promise<SavedFilter[]> {
    return (await this.#documents.find({ user }, { sort: { name: 1, _id: 1 } })).map(present);
  }

  async create(user: string, input: { name: string; query: string }): Promise<SavedFilter> {
    if ((await this.#documents.count({ user })) >= maxSavedFiltersPerUser) {
      throw new HttpError(409, `At most ${maxSavedFiltersPerUser} saved filters per user: delete one first`);
    }
    await this.#assertNameFree(user, input.name);
    const now = this.clock.nowSec();
    const record: SavedFilterRecord = { _id: randomUUID(), user, name: input.name, query: input.query, created: now, updated: now };
    await this.#documents.insertOne(record);
    return present(record);
  }

  async update(user: string, id: string, change: { name?: string; query?: string }): Promise<SavedFilter> {
    const current = await this.#documents.findOne({ _id: id, user });
    if (!current) throw missing(id);
    if (change.name !== undefined && change.name !== current.name) await this.#assertNameFree(user, change.name);
    const next: SavedFilterRecord = { ...current, ...change, updated: this.clock.nowSec() };
    await this.#documents.replaceOne({ _id: id, user }, next);
    return present(next);
  }

  async delete(user: string, id: string): Promise<void> {
    if ((await this.#documents.deleteOne({ _id: id, user })).deletedCount === 0) throw missing(id);
  }

  async #assertNameFree(user: string, name: string): Promise<void> {
    if (await this.#documents.findOne({ user, name })) throw new HttpError(409, `A saved filter named ${name} already exists`);
  }
}
