import { patternRegExp } from '@vigie/rule-schemas';

/** `declare_ticket` keys that are switches, not response fields. */
const flags = new Set(['regexp', 'empty_response']);

/** The ticket of an empty response (`empty_response: true`). */
export const emptyResponseTicket = 'N/A';

export type TicketOutcome = { ticket: string; data: Record<string, string> } | { error: string };

// Not `@vigie/json`'s isJsonObject: arrays pass too, so that their items flatten by index (`items.0.id`).
const isObjectOrArray = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** Every scalar of a JSON value by its dotted path (`result.number`, `items.0.id`), in document order. */
function flatten(value: unknown, prefix: string, into: Map<string, string>): void {
  if (isObjectOrArray(value)) {
    for (const [key, child] of Object.entries(value)) flatten(child, prefix === '' ? key : `${prefix}.${key}`, into);
  } else if (value !== null && value !== undefined && prefix !== '') {
    into.set(prefix, String(value));
  }
}

/**
 * The ticket a webhook's answer declares (REFERENCE §5.10): `ticket_id` names the field holding the ticket number,
 * every other key K names the field whose value goes to `v.ticket.data[K]`; names are dotted paths, or with
 * `regexp: true` regular expressions matched against the dotted paths (the first matching path, in the answer's
 * order); `empty_response: true` declares `N/A` whatever the answer.
 */
export function ticketFromResponse(mapping: Record<string, string | boolean>, body: string): TicketOutcome {
  if (mapping.empty_response === true) return { ticket: emptyResponseTicket, data: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { error: 'the answer is not JSON, so no ticket can be read from it' };
  }
  const fields = new Map<string, string>();
  flatten(parsed, '', fields);
  const find = (name: string): string | undefined => {
    if (mapping.regexp !== true) return fields.get(name);
    const expression = patternRegExp(name);
    for (const [path, value] of fields) if (expression.test(path)) return value;
    return undefined;
  };
  const ticketPath = mapping.ticket_id;
  if (typeof ticketPath !== 'string') return { error: 'declare_ticket.ticket_id is not set' };
  const ticket = find(ticketPath);
  if (ticket === undefined) return { error: `the answer has no field ${JSON.stringify(ticketPath)} (declare_ticket.ticket_id)` };
  const data: Record<string, string> = {};
  for (const [key, path] of Object.entries(mapping)) {
    if (key === 'ticket_id' || flags.has(key) || typeof path !== 'string') continue;
    const value = find(path);
    if (value !== undefined) data[key] = value;
  }
  return { ticket, data };
}
