import { typedStringField, type PatternEvent } from './event.js';
import { patternRegExp } from '@vigie/rule-schemas';
import { isJsonObject } from '@vigie/json';

/**
 * A necessary condition of one event pattern, cheap to check: a typed string field (read as the grammar reads it,
 * absent as "") equals `equals`, or starts with `prefix` (the literal start of an anchored `regex_match`).
 */
export type FieldRequirement = { field: string; equals: string } | { field: string; prefix: string };

/** Characters that stand for themselves in a regular expression outside a class. */
const literalCharacter = /[A-Za-z0-9 _\-:/=,;@#%&'"<>~!]/;
/** Quantifiers: the literal character before one is optional or repeated. */
const quantifier = /[?*+{]/;

/**
 * The literal text an accepted `regex_match` expression requires at the start of the subject, or null: only an
 * expression anchored by `^`, without flags (`(?i)` changes what the text matches, `m` moves `^`) nor alternation.
 */
export function literalPrefix(expression: string): string | null {
  const regex = patternRegExp(expression);
  const source = regex.source;
  if (regex.flags !== '' || !source.startsWith('^') || source.includes('|')) return null;
  let prefix = '';
  let i = 1;
  while (i < source.length) {
    const char = source[i] as string;
    if (char === '\\') {
      const escaped = source[i + 1];
      // An escaped punctuation character is that character; `\d`, `\w`, `\b`… are classes or assertions.
      if (escaped === undefined || /[A-Za-z0-9]/.test(escaped)) break;
      prefix += escaped;
      i += 2;
    } else if (literalCharacter.test(char)) {
      prefix += char;
      i += 1;
    } else break;
  }
  if (i < source.length && quantifier.test(source[i] as string)) prefix = prefix.slice(0, -1);
  return prefix === '' ? null : prefix;
}

/** The requirement of one event pattern object (an equality first, else an anchored prefix), or undefined. */
export function eventPatternRequirement(raw: Record<string, unknown>): FieldRequirement | undefined {
  let found: FieldRequirement | undefined;
  for (const [field, value] of Object.entries(raw)) {
    if (!typedStringField(field)) continue;
    if (typeof value === 'string') return { field, equals: value };
    if (found === undefined && isJsonObject(value) && typeof value.regex_match === 'string') {
      const prefix = literalPrefix(value.regex_match);
      if (prefix !== null) found = { field, prefix };
    }
  }
  return found;
}

/** How a typed string field reads: absent as "", a non-string as nothing (it never matches a string condition). */
function typedString(value: unknown): string | null {
  return value === undefined || value === null ? '' : typeof value === 'string' ? value : null;
}

/** The pattern lists that may hold for the values of a set of fields. */
interface FieldIndex {
  field: string;
  equal: Map<string, number[]>;
  /** By prefix length, then prefix; `shared` is the start all prefixes of that length have in common. */
  prefixes: { length: number; shared: string; lists: Map<string, number[]> }[];
}

/**
 * Which of many event pattern lists can match an event, without running them: each list's requirements (one per
 * OR'ed pattern) are indexed by field and value, so an event looks up its few field values instead of trying every
 * list. A list without requirements for every pattern (matching everything, or a pattern with no literal
 * equality nor anchored prefix on a typed string field) is always a candidate. Candidates still have to be
 * matched: the index only rules out lists that cannot match.
 */
export class EventPatternIndex {
  readonly #always: number[] = [];
  readonly #fields: FieldIndex[] = [];

  /** `requirements[i]`: the requirements of list i, undefined when it has none. */
  constructor(requirements: readonly (readonly FieldRequirement[] | undefined)[]) {
    const byField = new Map<string, FieldIndex>();
    requirements.forEach((list, position) => {
      if (list === undefined) {
        this.#always.push(position);
        return;
      }
      for (const requirement of list) {
        let index = byField.get(requirement.field);
        if (!index) {
          index = { field: requirement.field, equal: new Map(), prefixes: [] };
          byField.set(requirement.field, index);
          this.#fields.push(index);
        }
        if ('equals' in requirement) add(index.equal, requirement.equals, position);
        else {
          const length = requirement.prefix.length;
          let sameLength = index.prefixes.find((group) => group.length === length);
          if (!sameLength) index.prefixes.push((sameLength = { length, shared: requirement.prefix, lists: new Map() }));
          sameLength.shared = commonStart(sameLength.shared, requirement.prefix);
          add(sameLength.lists, requirement.prefix, position);
        }
      }
    });
  }

  /** The indexed fields: a change of one of them during matching (an enrichment) changes the candidates. */
  get fields(): string[] {
    return this.#fields.map((index) => index.field);
  }

  /**
   * The positions (in the order given) of the lists that can match `event`, ascending and each once, from position
   * `from` on: the others cannot match.
   */
  candidates(event: PatternEvent, from = 0): number[] {
    const found: number[] = [];
    collect(found, this.#always, from);
    for (const index of this.#fields) {
      const value = typedString(event[index.field]);
      if (value === null) continue;
      const equal = index.equal.get(value);
      if (equal) collect(found, equal, from);
      for (const { length, shared, lists } of index.prefixes) {
        // Most values start like none of the prefixes: ruled out without cutting the value.
        if (length > value.length || !value.startsWith(shared)) continue;
        const starting = lists.get(length === value.length ? value : value.slice(0, length));
        if (starting) collect(found, starting, from);
      }
    }
    // A list with several patterns may be found more than once.
    sortPositions(found);
    let kept = 0;
    for (const position of found) if (kept === 0 || found[kept - 1] !== position) found[kept++] = position;
    found.length = kept;
    return found;
  }
}

/**
 * Ascending order. An event's candidates are a few dozen at most: sorted in place by insertion, which allocates
 * nothing (`Array#sort` with a comparator copies the array for every event); a long list takes `Array#sort`.
 */
function sortPositions(found: number[]): void {
  if (found.length > 64) {
    found.sort((a, b) => a - b);
    return;
  }
  for (let i = 1; i < found.length; i++) {
    const position = found[i] as number;
    let j = i - 1;
    for (; j >= 0 && (found[j] as number) > position; j--) found[j + 1] = found[j] as number;
    found[j + 1] = position;
  }
}

function collect(found: number[], positions: readonly number[], from: number): void {
  for (const position of positions) if (position >= from) found.push(position);
}

function commonStart(a: string, b: string): string {
  let length = 0;
  while (length < a.length && a[length] === b[length]) length++;
  return a.slice(0, length);
}

function add(map: Map<string, number[]>, key: string, position: number): void {
  const list = map.get(key);
  if (list) list.push(position);
  else map.set(key, [position]);
}
