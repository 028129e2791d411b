import { assertNoCodeExecution } from '@vigie/filter-safety';
import type { Filter } from '@vigie/kernel';

/**
 * A WHERE clause that keeps every row a MongoDB filter can match, and usually far fewer than all: what it keeps is
 * then matched exactly (mingo, through `@vigie/documents`). `exact` says the clause alone answers the filter, so the
 * database may also count, page and skip the check.
 */
export interface Prefilter {
  sql: string;
  params: unknown[];
  exact: boolean;
}

/** Field path segments the prefilter puts in a JSON path: plain names only (anything else is matched in JavaScript). */
const plainSegment = /^[A-Za-z_][A-Za-z0-9_-]{0,100}$/;

/**
 * The SQL/JSON path of every value a MongoDB field path reaches, arrays crossed at each step as MongoDB does
 * (`list.k` ⇒ `$."list"[*]."k"[*]`); null when a segment is not a plain name (array positions, odd characters).
 */
export function valuesPath(field: string): string | null {
  const segments = field.split('.');
  if (!segments.every((s) => plainSegment.test(s))) return null;
  return `$${segments.map((s) => `."${s}"[*]`).join('')}`;
}

/** The indexed expression of a field path: the JSON array of the values it reaches. */
export function valuesExpression(path: string): string {
  return `jsonb_path_query_array(doc, '${path}'::jsonpath)`;
}

type Scalar = string | number | boolean;

function isScalar(value: unknown): value is Scalar {
  return typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

function isOperatorObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((k) => k.startsWith('$'));
}

class Builder {
  readonly params: unknown[] = [];

  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  /** One condition's clause, or null when it narrows nothing. */
  condition(filter: Filter): { sql: string | null; exact: boolean } {
    const parts: string[] = [];
    let exact = true;
    for (const [key, value] of Object.entries(filter)) {
      const part = this.#member(key, value);
      if (part.sql) parts.push(part.sql);
      exact &&= part.exact;
    }
    return { sql: parts.length > 0 ? parts.join(' AND ') : null, exact };
  }

  #member(key: string, value: unknown): { sql: string | null; exact: boolean } {
    if (key === '$and' && Array.isArray(value)) {
      const parts = value.map((sub) => this.condition(sub as Filter));
      const sqls = parts.map((p) => p.sql).filter((s): s is string => s !== null);
      return { sql: sqls.length > 0 ? `(${sqls.join(' AND ')})` : null, exact: parts.every((p) => p.exact) };
    }
    if (key === '$or' && Array.isArray(value) && value.length > 0) {
      const mark = this.params.length;
      const parts = value.map((sub) => this.condition(sub as Filter));
      // One branch that narrows nothing lets every row through: the clause is dropped, and with it the parameters
      // the other branches took (a parameter the SQL does not use is refused by the server).
      if (parts.some((p) => p.sql === null)) {
        this.params.length = mark;
        return { sql: null, exact: false };
      }
      return { sql: `(${parts.map((p) => p.sql).join(' OR ')})`, exact: parts.every((p) => p.exact) };
    }
    if (key.startsWith('$')) return { sql: null, exact: false };
    if (key === '_id') return this.#id(value);
    return { sql: this.#field(key, value), exact: false };
  }

  /** `_id` is the table's key column: string equality and `$in` are answered exactly by it. */
  #id(value: unknown): { sql: string | null; exact: boolean } {
    if (typeof value === 'string') return { sql: `id = ${this.param(value)}`, exact: true };
    if (isOperatorObject(value)) {
      const keys = Object.keys(value);
      if (keys.length === 1 && typeof value.$eq === 'string') return { sql: `id = ${this.param(value.$eq)}`, exact: true };
      if (keys.length === 1 && Array.isArray(value.$in) && value.$in.every((v) => typeof v === 'string')) {
        return { sql: `id = ANY(${this.param(value.$in)}::text[])`, exact: true };
      }
    }
    return { sql: null, exact: false };
  }

  /**
   * Equality, `$eq`, `$in` and `$all` of scalars on a field: the values the field reaches (arrays flattened) must
   * contain the value — true of every document MongoDB matches, and answered by the field's GIN index.
   */
  #field(key: string, value: unknown): string | null {
    const path = valuesPath(key);
    if (path === null) return null;
    const contains = (v: Scalar): string => `${valuesExpression(path)} @> ${this.param(JSON.stringify([v]))}::jsonb`;
    if (isScalar(value)) return contains(value);
    if (!isOperatorObject(value)) return null;
    const parts: string[] = [];
    if (isScalar(value.$eq)) parts.push(contains(value.$eq));
    if (Array.isArray(value.$in) && value.$in.length > 0 && value.$in.every(isScalar)) {
      parts.push(`(${(value.$in as Scalar[]).map(contains).join(' OR ')})`);
    }
    if (Array.isArray(value.$all) && value.$all.length > 0 && value.$all.every(isScalar)) {
      parts.push(...(value.$all as Scalar[]).map(contains));
    }
    return parts.length > 0 ? parts.join(' AND ') : null;
  }
}

/** The prefilter of `filter`, its parameters numbered from `$1`; refuses filters that execute code. */
export function prefilter(filter: Filter): Prefilter {
  assertNoCodeExecution(filter);
  const builder = new Builder();
  const { sql, exact } = builder.condition(filter);
  return { sql: sql ?? 'TRUE', params: builder.params, exact };
}
