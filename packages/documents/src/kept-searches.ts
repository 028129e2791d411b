import type { Doc, Filter } from '@vigie/kernel';
import { compileMatcher, lookupKeys, pathReader, unsure, type FieldIndex, type Matcher } from './query-plan.js';

/**
 * Literal searches kept for a collection: the upper-cased texts of the fields a case-insensitive search looks in (the
 * alarm list's `search`: `$or` of `{<field>: {$regex: <escaped text>, $options: 'i'}}`), one string per document,
 * kept up to date at each write. A search then reads those short strings instead of walking every document's
 * fields, which on 100,000 open alarms is most of a page's cost once an alarm changed since the last count.
 *
 * The texts only pick the candidates, a superset of the matches: two strings equal under the regex's case-insensitive
 * rule are equal once upper-cased (never the other way round), and values a plain read cannot tell (a path through an
 * array) make their document a candidate. The whole filter is then tested on the candidates.
 */

/** Searches kept per collection at most; the least recently asked for is dropped for a new one. */
const maxKeptSearches = 4;
/** A search nobody asked for during this many document writes of its collection is dropped (it costs every write). */
const keptSearchIdleWrites = 100_000;
/** Joins a document's texts; a needle holding it is not answered here (it could match across two fields). */
const separator = '\u0000';
/** The text of a document the plain read cannot tell: always a candidate. */
const undecided = null;

/** Where a kept search looks: the documents under one index key set (the open alarms), or all of them. */
interface Scope {
  field: string;
  keys: string[];
  index: FieldIndex;
  condition: unknown;
}

interface KeptSearch {
  /** Whether a document belongs to the scope, for writes. */
  inScope: Matcher;
  readers: ((doc: Doc) => unknown)[];
  texts: Map<string, string | typeof undecided>;
  writesSinceAsked: number;
}

/** A top-level `$or` this module can answer: literal searches, and conditions an index answers exactly. */
interface SearchShape {
  needles: string[];
  fields: string[];
  /** The parts an index answers: its keys, and the part's own test (for one document, cheaper than the index's keys). */
  indexed: { index: FieldIndex; keys: string[]; test: Matcher }[];
  /** The filter without the `$or`: what decides the scope. */
  rest: Filter;
}

/** The literal text of a pattern made only of characters and escaped punctuation (what the list's search sends), or null. */
function literalOf(pattern: string): string | null {
  return /^(?:[^\\.*+?^${}()|[\]]|\\[.*+?^${}()|[\]\\/-])*$/.test(pattern) ? pattern.replace(/\\(.)/g, '$1') : null;
}

function textOf(readers: readonly ((doc: Doc) => unknown)[], doc: Doc): string | typeof undecided {
  const texts: string[] = [];
  for (const read of readers) {
    const value = read(doc);
    if (value === unsure) return undecided;
    if (typeof value === 'string') texts.push(value.toUpperCase());
    else if (Array.isArray(value)) {
      for (const item of value) if (typeof item === 'string') texts.push(item.toUpperCase());
    }
  }
  return texts.join(separator);
}

export class KeptSearches {
  readonly #kept = new Map<string, KeptSearch>();
  /** Searches asked for once and not kept: one is kept when it comes again (a one-off would only cost the writes). */
  readonly #askedOnce = new Set<string>();

  get size(): number {
    return this.#kept.size;
  }

  clear(): void {
    this.#kept.clear();
    this.#askedOnce.clear();
  }

  /**
   * The documents matching `filter`, found through a kept search, or undefined when the filter holds no literal search
   * or the search is not kept yet (it is kept from its second time on; `scopeOf` picks the index that bounds it).
   */
  matching(filter: Filter, docs: ReadonlyMap<string, Doc>, indexes: ReadonlyMap<string, FieldIndex>, scopeOf: (rest: Filter) => Scope | undefined): Doc[] | undefined {
    const shape = searchShape(filter, indexes);
    if (!shape) return undefined;
    const scope = scopeOf(shape.rest);
    const key = keyOf(shape, scope);
    let kept = this.#kept.get(key);
    if (!kept) {
      if (!this.#askedOnce.delete(key)) {
        if (this.#askedOnce.size >= maxKeptSearches * 2) this.#askedOnce.delete(this.#askedOnce.values().next().value as string);
        this.#askedOnce.add(key);
        return undefined;
      }
      kept = build(shape.fields, scope, docs);
      if (this.#kept.size >= maxKeptSearches) this.#kept.delete(this.#kept.keys().next().value as string);
    } else this.#kept.delete(key);
    // Last in the map's order: the most recently asked for.
    this.#kept.set(key, kept);
    kept.writesSinceAsked = 0;

    const test = compileMatcher(filter);
    const matched: Doc[] = [];
    const seen = shape.indexed.length > 0 ? new Set<string>() : undefined;
    const holds = textTest(shape.needles);
    // `forEach` rather than `for…of` over the entries: no entry array per document.
    kept.texts.forEach((text, id) => {
      if (text !== undecided && !holds(text)) return;
      const doc = docs.get(id);
      if (doc && test(doc)) {
        matched.push(doc);
        seen?.add(id);
      }
    });
    for (const { index, keys } of shape.indexed) {
      index.forEachDoc(keys, (doc) => {
        if (seen!.has(doc._id) || !test(doc)) return;
        seen!.add(doc._id);
        matched.push(doc);
      });
    }
    return matched;
  }

  /**
   * A quick test that a document may match `filter`, from a search already kept (undefined otherwise): false only for
   * documents that cannot. For a walk that tests documents one by one in an index's order.
   */
  candidateTest(filter: Filter, indexes: ReadonlyMap<string, FieldIndex>, scopeOf: (rest: Filter) => Scope | undefined): Matcher | undefined {
    if (this.#kept.size === 0) return undefined;
    const shape = searchShape(filter, indexes);
    if (!shape) return undefined;
    const kept = this.#kept.get(keyOf(shape, scopeOf(shape.rest)));
    if (!kept) return undefined;
    kept.writesSinceAsked = 0;
    const holds = textTest(shape.needles);
    const { texts } = kept;
    return (doc) => {
      const text = texts.get(doc._id);
      // Outside the scope: the rest of the filter refuses the document.
      if (text === undefined) return false;
      return text === undecided || holds(text) || shape.indexed.some((part) => part.test(doc));
    };
  }

  /** Follows one document's change; drops the searches nobody asked for in a long while. */
  maintain(id: string, after: Doc | null): void {
    for (const [key, kept] of this.#kept) {
      if (++kept.writesSinceAsked > keptSearchIdleWrites) {
        this.#kept.delete(key);
        continue;
      }
      if (after && kept.inScope(after)) kept.texts.set(id, textOf(kept.readers, after));
      else kept.texts.delete(id);
    }
  }
}

/** A search's texts are kept per scope and set of fields: any text searched in those fields there is answered by them. */
function keyOf(shape: SearchShape, scope: Scope | undefined): string {
  return JSON.stringify([scope?.field ?? null, scope?.keys ?? null, [...shape.fields].sort()]);
}

/** Whether a kept text holds one of the needles (upper case). */
function textTest(needles: readonly string[]): (text: string) => boolean {
  if (needles.length === 1) {
    const [needle] = needles as [string];
    return (text) => text.includes(needle);
  }
  return (text) => {
    for (const needle of needles) if (text.includes(needle)) return true;
    return false;
  };
}

function build(fields: readonly string[], scope: Scope | undefined, docs: ReadonlyMap<string, Doc>): KeptSearch {
  const readers = fields.map((field) => pathReader(field));
  const texts = new Map<string, string | typeof undecided>();
  if (scope) scope.index.forEachDoc(scope.keys, (doc) => void texts.set(doc._id, textOf(readers, doc)));
  else for (const [id, doc] of docs) texts.set(id, textOf(readers, doc));
  return { inScope: scope ? compileMatcher({ [scope.field]: scope.condition }) : () => true, readers, texts, writesSinceAsked: 0 };
}

/**
 * The literal search of a filter: its top-level `$or` when every part is a case-insensitive literal regex on a field
 * or a condition an index answers exactly (the list's entities whose infos match), with at least one of the former.
 */
function searchShape(filter: Filter, indexes: ReadonlyMap<string, FieldIndex>): SearchShape | undefined {
  const parts = filter.$or;
  if (!Array.isArray(parts) || parts.length === 0) return undefined;
  const needles = new Set<string>();
  const fields = new Set<string>();
  const indexed: SearchShape['indexed'] = [];
  for (const part of parts as unknown[]) {
    if (typeof part !== 'object' || part === null || Array.isArray(part)) return undefined;
    const entries = Object.entries(part);
    if (entries.length !== 1) return undefined;
    const [field, condition] = entries[0] as [string, unknown];
    if (field.startsWith('$') || typeof condition !== 'object' || condition === null) return undefined;
    const { $regex: pattern, $options: options, ...others } = condition as Record<string, unknown>;
    if (typeof pattern === 'string' && options === 'i' && Object.keys(others).length === 0) {
      const literal = literalOf(pattern);
      if (literal === null || literal === '' || literal.includes(separator)) return undefined;
      needles.add(literal.toUpperCase());
      fields.add(field);
      continue;
    }
    const index = indexes.get(field);
    const keys = index?.usable ? lookupKeys(condition) : null;
    if (!index || !keys) return undefined;
    indexed.push({ index, keys, test: compileMatcher({ [field]: condition }) });
  }
  if (fields.size === 0) return undefined;
  const { $or: _search, ...rest } = filter;
  return { needles: [...needles], fields: [...fields], indexed, rest };
}
