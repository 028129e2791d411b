import { injectable } from 'tsyringe';
import { injectRef, kernelRefs, type Collection, type EventBus, type FeatureStore } from '@vigie/kernel';
import { entityCollection } from './entity-repository.js';
import { entitiesChangedEvent } from './refs.js';

/**
 * The lower-case texts a search looks in among an entity's infos (`{<name>: {description, value}}`): each name, and
 * each value that is a string or a number, or each string of an array value.
 */
export function infosSearchTexts(infos: unknown): string[] {
  if (typeof infos !== 'object' || infos === null) return [];
  const texts: string[] = [];
  for (const [name, info] of Object.entries(infos as Record<string, unknown>)) {
    texts.push(name.toLowerCase());
    const value = typeof info === 'object' && info !== null ? (info as { value?: unknown }).value : info;
    if (typeof value === 'string' || typeof value === 'number') texts.push(String(value).toLowerCase());
    else if (Array.isArray(value)) for (const item of value) if (typeof item === 'string') texts.push(item.toLowerCase());
  }
  return texts;
}

/** Joins an entity's texts for one `includes` per search; a needle without the separator cannot match across two. */
const separator = '\u0000';

/** One entity's texts: joined when none holds the separator (nearly always), else as they are. */
type Held = string | readonly string[];

function held(infos: unknown): Held {
  const texts = infosSearchTexts(infos);
  return texts.some((text) => text.includes(separator)) ? texts : texts.join(separator);
}

function holds(entry: Held, needle: string): boolean {
  if (typeof entry === 'string') return !needle.includes(separator) && entry.includes(needle);
  return entry.some((text) => text.includes(needle));
}

/**
 * With nobody following, an announcement naming at least this many entities, and at least an eighth of those held,
 * has every entity read again at the next search rather than each named one.
 */
const bulkAnnouncement = 1_000;

/** While streams follow the infos, every entity is read again after another node's writes at most this often. */
const followedFullReadMs = 10_000;

/**
 * Which entities' infos hold a text, for the alarm list's search: the infos' texts of every entity, kept in memory
 * so that a search tests each entity once instead of copying every entity's infos out of the store.
 *
 * Kept current by what announces entity changes: `context-graph.entities-changed` (every write of this feature, which
 * alone writes the entities) has the named entities read again before the next search (every entity, for an
 * announcement of many: an import), and a store change notice (another node's write, on stores that give them) has
 * every entity read again. Read at the first search. While
 * someone follows the texts (`follow`: a live stream's search, tested on each alarm change without waiting), the
 * entities this node announces are read again at once, and another node's writes within `followedFullReadMs`.
 */
@injectable()
export class EntityInfosSearch {
  readonly #entities: Collection;
  #texts = new Map<string, Held>();
  /** Bumped by each store change notice: texts read before it are read again. */
  #generation = 0;
  /** The generation the texts were read at; -1 before the first read. */
  #readAt = -1;
  /** Entities announced as changed, with the sequence number of their last announcement. */
  readonly #changed = new Map<string, number>();
  #sequence = 0;
  /** Reads of the store, one at a time: a read of a few entities never races a read of them all. */
  #reads: Promise<void> = Promise.resolve();
  /** How many follow the texts (`follow`), and whether a read of each kind is under way or waiting for them. */
  #followers = 0;
  #readingChanged = false;
  #readingAll = false;
  /** When every entity was last read (ms, process clock). */
  #fullReadAt = 0;

  constructor(
    @injectRef(kernelRefs.store) private readonly store: FeatureStore,
    @injectRef(kernelRefs.eventBus) private readonly eventBus: EventBus,
  ) {
    this.#entities = store.collection(entityCollection);
  }

  /** Follows the changes of the entities; returns how to stop. */
  listen(): () => void {
    const stopEvents = this.eventBus.on(entitiesChangedEvent, ({ ids }) => {
      if (this.#followers === 0 && ids.length >= bulkAnnouncement && ids.length * 8 >= this.#texts.size) {
        // An import: reading every entity at the next search costs about what reading these would, and tracking each
        // id held a map of a million entries until then. Followers read changes at once, so theirs are tracked.
        this.#changed.clear();
        this.#generation += 1;
        return;
      }
      for (const id of ids) this.#changed.set(id, ++this.#sequence);
      this.#refreshForFollowers();
    });
    // The feature store tells the changes of this feature's collections only; the entities' are the ones that count.
    const stopNotices = this.store.changes?.subscribe((collection) => {
      if (collection !== '' && collection !== entityCollection.name) return;
      this.#generation += 1;
      this.#refreshForFollowers();
    });
    return () => {
      stopEvents();
      stopNotices?.();
    };
  }

  /** Ids of the entities whose infos hold `needle` (lower case) in a name or a value, at most `max`. */
  async matching(needle: string, max: number): Promise<string[]> {
    await this.current();
    const matched: string[] = [];
    for (const [id, entry] of this.#texts) {
      if (!holds(entry, needle)) continue;
      matched.push(id);
      if (matched.length >= max) break;
    }
    return matched;
  }

  /** Settles once the texts hold every change announced before the call. */
  async current(): Promise<void> {
    const generation = this.#generation;
    while (this.#readAt < generation) await this.#read(() => this.#readAll());
    if (this.#changed.size > 0) await this.#read(() => this.#readChanged());
  }

  /** Whether the infos of entity `id` hold `needle` (lower case), as last read (see `current` and `follow`). */
  holdsNow(id: string, needle: string): boolean {
    const entry = this.#texts.get(id);
    return entry !== undefined && holds(entry, needle);
  }

  /** Keeps the texts current without waiting for a search (see the class); returns how to stop following. */
  follow(): () => void {
    this.#followers += 1;
    let following = true;
    return () => {
      if (following) this.#followers -= 1;
      following = false;
    };
  }

  /**
   * For followers: reads the entities this node announced at once, and every entity after another node's writes at
   * most every `followedFullReadMs`; one read of each kind under way or waiting at a time.
   */
  #refreshForFollowers(): void {
    if (this.#followers === 0) return;
    if (this.#changed.size > 0 && !this.#readingChanged) {
      this.#readingChanged = true;
      setImmediate(() => {
        this.#read(() => this.#readChanged())
          .catch(() => undefined)
          .finally(() => {
            this.#readingChanged = false;
            this.#refreshForFollowers();
          });
      });
    }
    if (this.#readAt < this.#generation && !this.#readingAll) {
      this.#readingAll = true;
      const timer = setTimeout(() => {
        this.current()
          .catch(() => undefined)
          .finally(() => {
            this.#readingAll = false;
            this.#refreshForFollowers();
          });
      }, Math.max(0, this.#fullReadAt + followedFullReadMs - performance.now()));
      timer.unref();
    }
  }

  #read(work: () => Promise<void>): Promise<void> {
    const run = this.#reads.then(work);
    this.#reads = run.catch(() => undefined);
    return run;
  }

  async #readAll(): Promise<void> {
    const generation = this.#generation;
    const sequence = this.#sequence;
    const texts = new Map<string, Held>();
    for (const entity of await this.#entities.find({}, { projection: { infos: 1 } })) texts.set(entity._id, held(entity.infos));
    this.#texts = texts;
    this.#readAt = generation;
    this.#fullReadAt = performance.now();
    // Announced before the read: read with the others. Announced since: read again at the next search.
    for (const [id, announced] of this.#changed) if (announced <= sequence) this.#changed.delete(id);
  }

  async #readChanged(): Promise<void> {
    const changed = [...this.#changed];
    if (changed.length === 0) return;
    const found = await this.#entities.find({ _id: { $in: changed.map(([id]) => id) } }, { projection: { infos: 1 } });
    const read = new Map(found.map((entity) => [entity._id, entity.infos]));
    for (const [id, announced] of changed) {
      if (read.has(id)) this.#texts.set(id, held(read.get(id)));
      else this.#texts.delete(id);
      if (this.#changed.get(id) === announced) this.#changed.delete(id);
    }
  }
}
