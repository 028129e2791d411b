import { inputBounds } from '@vigie/input';
import { isJsonObject } from '@vigie/json';
import type { VigieEvent } from './pipeline.js';
import { shallowCopy } from './shallow-copy.js';

/** Why an event is refused: the field at fault (null for the event as a whole) and a sentence. */
export interface EventProblem {
  field: string | null;
  reason: string;
}

/** The source types the original's engines accept (REFERENCE §5.2: the Go engines also take metaalarm and service). */
export const sourceTypes = ['connector', 'component', 'resource', 'metaalarm', 'service'] as const;

/** Event types whose author is the user who sent them over HTTP (REFERENCE §4.13). */
export const userActionTypes = new Set([
  'ack',
  'ackremove',
  'assocticket',
  'declareticket',
  'cancel',
  'uncancel',
  'comment',
  'done',
  'changestate',
  'keepstate',
  'snooze',
  'unsnooze',
]);

/** AMQP short strings, hence the original's routing keys, hold at most 255 octets (REFERENCE §6.3, §9.1). */
export const maxRoutingKeyBytes = 255;

const nonEmptyString = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** `<connector>.<connector_name>.<event_type>.<source_type>.<component>[.<resource>]`, the original's AMQP routing key. */
export function routingKeyOf(event: Pick<VigieEvent, 'connector' | 'connector_name' | 'event_type' | 'source_type' | 'component' | 'resource'>): string {
  const key = `${event.connector}.${event.connector_name}.${event.event_type}.${event.source_type}.${event.component ?? ''}`;
  return event.source_type === 'resource' && event.resource !== undefined ? `${key}.${event.resource}` : key;
}

/** A lone UTF-16 surrogate: text JSON can carry (`"\\ud800"`) but UTF-8 cannot encode. */
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether a string is well-formed Unicode (`String.prototype.isWellFormed` where the runtime has it: much faster). */
const wellFormed: (text: string) => boolean =
  typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed === 'function'
    ? (text) => (text as unknown as { isWellFormed(): boolean }).isWellFormed()
    : (text) => !loneSurrogate.test(text);

/**
 * Whether every string JSON text parses into is well-formed, the text being well-formed (decoded from valid UTF-8):
 * a lone surrogate can only come from a `\u` escape. Lets ingestion skip the walk over each event's strings.
 */
export function parsesToWellFormedText(json: string): boolean {
  return !json.includes('\\u');
}

/**
 * Why a value cannot be taken as sent, with the keys leading there (innermost last; built only when one is found):
 * text that is not well-formed Unicode, or past the input bounds every route applies (docs/configuration.md, "Input
 * bounds"). Events arriving over AMQP get no body parser's depth check, so the walk stops at the bound's depth.
 */
function valueProblem(value: unknown, depth: number, wellFormedText: boolean): { path: string[]; reason: string } | null {
  if (typeof value === 'string') {
    if (value.length > inputBounds.longTextLength) return { path: [], reason: `must be at most ${inputBounds.longTextLength} characters` };
    return wellFormedText || wellFormed(value) ? null : { path: [], reason: 'is not valid UTF-8 text' };
  }
  if (typeof value !== 'object' || value === null) return null;
  if (depth >= inputBounds.depth) return { path: [], reason: `is nested deeper than ${inputBounds.depth} levels` };
  if (Array.isArray(value)) {
    if (value.length > inputBounds.anyListLength) return { path: [], reason: `must have at most ${inputBounds.anyListLength} elements` };
    for (let i = 0; i < value.length; i++) {
      const found = valueProblem(value[i], depth + 1, wellFormedText);
      if (found) return (found.path.unshift(String(i)), found);
    }
    return null;
  }
  const keys = Object.keys(value);
  if (keys.length > inputBounds.objectKeys) return { path: [], reason: `must have at most ${inputBounds.objectKeys} keys` };
  for (const key of keys) {
    if (!wellFormedText && !wellFormed(key)) return { path: [key], reason: 'is not valid UTF-8 text' };
    if (key.length > inputBounds.longTextLength) return { path: [], reason: `has a key longer than ${inputBounds.longTextLength} characters` };
    const found = valueProblem((value as Record<string, unknown>)[key], depth + 1, wellFormedText);
    if (found) return (found.path.unshift(key), found);
  }
  return null;
}

/**
 * What makes an event unprocessable (REFERENCE §5.2, §6.3), or undefined. Checked at ingestion and again after the
 * event filter, which may have changed the event. `wellFormedText`: its strings are known to be well-formed.
 */
export function eventProblem(event: Record<string, unknown>, wellFormedText = false): EventProblem | undefined {
  if (!nonEmptyString(event.event_type)) return { field: 'event_type', reason: 'event_type must be a non-empty string' };
  if (!(sourceTypes as readonly unknown[]).includes(event.source_type)) {
    return { field: 'source_type', reason: `source_type must be one of ${sourceTypes.join(', ')}` };
  }
  for (const field of ['connector', 'connector_name'] as const) {
    if (!nonEmptyString(event[field])) return { field, reason: `${field} must be a non-empty string` };
  }
  if (event.source_type !== 'connector' && !nonEmptyString(event.component)) {
    return { field: 'component', reason: `component must be a non-empty string for a ${String(event.source_type)} event` };
  }
  if (event.source_type === 'resource' && !nonEmptyString(event.resource)) {
    return { field: 'resource', reason: 'resource must be a non-empty string for a resource event' };
  }
  // One read of each field: a read of a field the event lacks is the slow kind, and most lack most of these.
  for (const field of ['component', 'resource', 'output', 'author', 'ticket'] as const) {
    const value = event[field];
    if (value !== undefined && typeof value !== 'string') return { field, reason: `${field} must be a string` };
  }
  for (const field of ['author', 'ticket'] as const) {
    const value = event[field];
    if (typeof value === 'string' && value.length > maxLabelLength) return { field, reason: `${field} must be at most ${maxLabelLength} characters` };
  }
  const state = event.state;
  if (state !== undefined && !(Number.isInteger(state) && (state as number) >= 0 && (state as number) <= 3)) {
    return { field: 'state', reason: 'state must be an integer between 0 and 3' };
  }
  if ((event.event_type === 'changestate' || event.event_type === 'keepstate') && state === undefined) {
    return { field: 'state', reason: `a ${event.event_type} event needs a state` };
  }
  if (typeof event.timestamp !== 'number' || !Number.isFinite(event.timestamp) || event.timestamp < 0) {
    return { field: 'timestamp', reason: 'timestamp must be a number of seconds since the epoch' };
  }
  if (event.event_type === 'snooze' && !(Number.isInteger(event.duration) && (event.duration as number) > 0)) {
    return { field: 'duration', reason: 'a snooze event needs a duration: a positive number of seconds' };
  }
  if (event.event_type === 'assocticket' && !nonEmptyString(event.ticket)) {
    return { field: 'ticket', reason: 'an assocticket event needs a ticket' };
  }
  if (event.event_type === 'perf' && event.perf_data === undefined && event.perf_data_array === undefined) {
    return { field: 'perf_data', reason: 'a perf event needs perf_data or perf_data_array' };
  }
  for (const field of ['ack_resources', 'debug'] as const) {
    const value = event[field];
    if (value !== undefined && typeof value !== 'boolean') return { field, reason: `${field} must be a boolean` };
  }
  const problem = valueProblem(event, 0, wellFormedText);
  if (problem !== null) {
    // A path hundreds of keys long (a value nested too deep) is named by its top-level field.
    const field = problem.path.length === 0 ? null : problem.path.length > 8 ? (problem.path[0] as string) : problem.path.join('.');
    return { field, reason: `${field ?? 'the event'} ${problem.reason}` };
  }
  // A UTF-16 code unit takes at most 3 octets in UTF-8: short keys need no count (nor to be made).
  if (routingKeyLength(event as unknown as VigieEvent) * 3 > maxRoutingKeyBytes) {
    const octets = Buffer.byteLength(routingKeyOf(event as unknown as VigieEvent));
    if (octets > maxRoutingKeyBytes) {
      return { field: null, reason: `the routing key <connector>.<connector_name>.<event_type>.<source_type>.<component>[.<resource>] is ${octets} octets long, more than ${maxRoutingKeyBytes}` };
    }
  }
  return undefined;
}

/** The length (UTF-16 code units) of `routingKeyOf(event)`, without making it. */
function routingKeyLength(event: VigieEvent): number {
  const length = event.connector.length + event.connector_name.length + event.event_type.length + event.source_type.length + (event.component?.length ?? 0) + 4;
  return event.source_type === 'resource' && event.resource !== undefined ? length + 1 + event.resource.length : length;
}

/**
 * Outputs are cut to the lengths of the original's configuration (REFERENCE §8: 255 and 1024 characters), so that one
 * chatty check cannot make every alarm read heavy; the cut is made on a character boundary.
 */
export const maxOutputLength = 255;
export const maxLongOutputLength = 1024;
/** Author and ticket name people and tickets: longer values are refused rather than cut. */
export const maxLabelLength = 255;

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : max;
  return text.slice(0, end);
}

/** Who sent an event over HTTP, for the events whose author is that user. */
export interface EventSender {
  name: string;
  role?: string;
}

/**
 * Why the event route refuses an event the pipeline could process: a `changestate`/`keepstate` to state 0, unless
 * allowed (REFERENCE §4.13; events arriving over AMQP are not concerned, as in the original).
 */
export function refusedByEventRoute(event: VigieEvent, allowChangeSeverityToInfo: boolean): EventProblem | undefined {
  if (allowChangeSeverityToInfo || event.state !== 0) return undefined;
  if (event.event_type !== 'changestate' && event.event_type !== 'keepstate') return undefined;
  return { field: 'state', reason: `a ${event.event_type} to state 0 (info) is refused unless [engine] allow_change_severity_to_info is true` };
}

/**
 * The event as the pipeline takes it, or why it is refused: `timestamp` defaults to `nowSec`, a non-string
 * `long_output` becomes "" (REFERENCE §4.13), outputs are cut to their bounds, and a user action sent over HTTP is
 * authored by the sender. `wellFormedText`: its strings are known to be well-formed (`parsesToWellFormedText`).
 */
export function acceptEvent(raw: unknown, nowSec: number, sender?: EventSender, wellFormedText = false): { event: VigieEvent } | { problem: EventProblem } {
  if (!isJsonObject(raw)) return { problem: { field: null, reason: 'an event must be a JSON object' } };
  const event = shallowCopy(raw);
  if (event.timestamp === undefined || event.timestamp === null) event.timestamp = nowSec;
  if (event.long_output !== undefined && typeof event.long_output !== 'string') event.long_output = '';
  if (typeof event.output === 'string') event.output = cut(event.output, maxOutputLength);
  if (typeof event.long_output === 'string') event.long_output = cut(event.long_output, maxLongOutputLength);
  if (sender && typeof event.event_type === 'string' && userActionTypes.has(event.event_type)) {
    event.author = sender.name;
    if (sender.role !== undefined) event.role = sender.role;
  }
  const problem = eventProblem(event, wellFormedText);
  return problem ? { problem } : { event: event as VigieEvent };
}
