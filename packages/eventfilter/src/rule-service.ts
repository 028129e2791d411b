import { randomUUID } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import { HttpError } from '@vigie/kernel';
import { RuleRepository, type RuleRecord } from './rule-repository.js';
import type { Rule, RuleBody } from './schemas.js';

const optionalFields = ['description', 'pattern', 'patterns', 'priority', 'enabled', 'external_data', 'actions', 'on_success', 'on_failure'] as const;

/** The rule built field by field: `_id`, `type`, and the optional fields that are present. */
function buildRule(id: string, source: RuleBody | RuleRecord): RuleRecord {
  const rule: RuleRecord = { _id: id, type: source.type };
  for (const field of optionalFields) {
    if (source[field] !== undefined) Object.assign(rule, { [field]: source[field] });
  }
  return rule;
}

export function notFound(id: string, status: 400 | 404 = 404): HttpError {
  return new HttpError(status, `No rule with id: ${id}`);
}

/** An `_id` sent on POST is kept when it is a non-empty string without spaces; a uuid replaces anything else. */
function acceptedId(requested: unknown): string {
  return typeof requested === 'string' && requested !== '' && !/\s/.test(requested) ? requested : randomUUID();
}

/**
 * Creating, replacing, reading and deleting event-filter rules (`eventfilter`); every write reaches the pipeline's next
 * event, on every node (`EventFilterRules` sees the repository's writes and the store's change notifications).
 */
@injectable()
export class RuleService {
  constructor(@inject(RuleRepository) private readonly rules: RuleRepository) {}

  /** Throws the store's `DUPLICATE_KEY` error when the id exists. */
  /** The rule a body describes, as it would be stored (the preview's rule). */
  draft(requestedId: unknown, body: RuleBody): RuleRecord {
    return buildRule(acceptedId(requestedId), body);
  }

  async create(requestedId: unknown, body: RuleBody): Promise<{ _id: string }> {
    const rule = buildRule(acceptedId(requestedId), body);
    await this.rules.insert(rule);
    return { _id: rule._id };
  }

  /** Full replacement of the rule `id`. */
  async replace(id: string, body: RuleBody): Promise<void> {
    const replaced = await this.rules.replace(buildRule(id, body));
    if (!replaced) throw notFound(id);
  }

  async get(id: string): Promise<Rule | null> {
    const record = await this.rules.get(id);
    return record && buildRule(record._id, record);
  }

  /** In the order the pipeline applies them: by `priority` (0 when absent), then `_id`. */
  async list(): Promise<Rule[]> {
    const records = await this.rules.list();
    const priority = (rule: RuleRecord): number => rule.priority ?? 0;
    return records.sort((a, b) => priority(a) - priority(b) || a._id.localeCompare(b._id)).map((record) => buildRule(record._id, record));
  }

  /** The spec answers an unknown id with 400 here (404 on GET and PUT). */
  async delete(id: string): Promise<void> {
    const deleted = await this.rules.delete(id);
    if (!deleted) throw notFound(id, 400);
  }
}
