import { acceptEvent, parsesToWellFormedText, type EventProblem } from './event-validation.js';
import type { VigieEvent } from './pipeline.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** What one AMQP message holds: the events to queue, and why the others cannot be processed. */
export interface ReadMessage {
  events: VigieEvent[];
  /** Messages (or elements of a list) refused, as the dead-letter queue keeps them. */
  refused: { content: Buffer; reason: string }[];
}

const wording = (problem: EventProblem): string => (problem.field === null ? problem.reason : `${problem.field}: ${problem.reason}`);

/** Reads a message body: one event or a list of events, UTF-8 JSON, each checked as HTTP checks them. */
export function readMessage(content: Buffer, nowSec: number): ReadMessage {
  let text: string;
  try {
    text = utf8.decode(content);
  } catch {
    return { events: [], refused: [{ content, reason: 'the message is not valid UTF-8 text' }] };
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    return { events: [], refused: [{ content, reason: `the message is not JSON: ${(err as Error).message}` }] };
  }
  const raws = Array.isArray(body) ? body : [body];
  const wellFormedText = parsesToWellFormedText(text);
  const read: ReadMessage = { events: [], refused: [] };
  for (const raw of raws) {
    const outcome = acceptEvent(raw, nowSec, undefined, wellFormedText);
    if ('event' in outcome) read.events.push(outcome.event);
    else read.refused.push({ content: raws.length === 1 ? content : Buffer.from(JSON.stringify(raw)), reason: wording(outcome.problem) });
  }
  return read;
}
