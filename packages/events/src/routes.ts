import { ErrorCodes, HttpError, errorDetail, type RouteDefinition, type VigieContext, kernelRefs } from '@vigie/kernel';
import { assertWithinInputBounds, requestBody } from '@vigie/input';
import { assertJsonDepth } from '@vigie/kernel-http';
import { PipelineDryRun } from './dry-run.js';
import { EngineSettingsService } from './engine-settings.js';
import { EventIntake } from './event-intake.js';
import { acceptEvent, parsesToWellFormedText, refusedByEventRoute } from './event-validation.js';
import type { VigieEvent } from './pipeline.js';
import { dryRunReportSchema, eventBodySchema, eventSchema, ingestionAnswerSchema } from './schemas.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The request body as JSON, read here so that its size is bounded and invalid UTF-8 is refused, not replaced; with
 * whether its strings are all well-formed (`parsesToWellFormedText`).
 */
async function readJson(ctx: VigieContext, limit: number, maxDepth: number): Promise<{ body: unknown; wellFormedText: boolean }> {
  if (ctx.request.length > limit) throw new HttpError(413, `The request body exceeds ${limit} bytes.`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new HttpError(413, `The request body exceeds ${limit} bytes.`);
    chunks.push(chunk);
  }
  if (size === 0) throw new HttpError(400, 'Empty request: send one event or a list of events as JSON.');
  let text: string;
  try {
    text = utf8.decode(Buffer.concat(chunks, size));
  } catch {
    throw new HttpError(400, 'The request body is not valid UTF-8 text.');
  }
  try {
    // Depth first: JSON.parse and every walk after it would overflow the stack on a body nested thousands deep.
    assertJsonDepth(text, maxDepth);
    return { body: JSON.parse(text) as unknown, wellFormedText: parsesToWellFormedText(text) };
  } catch (err) {
    throw new HttpError(400, `Malformed JSON: ${errorDetail(err)}`);
  }
}

interface FailedEvent {
  event: unknown;
  field: string | null;
  error: string;
}

export const eventRoutes: RouteDefinition[] = [
  {
    method: 'POST',
    path: '/api/v2/event/dry-run',
    // What an event would do reveals the rules; the right of sending events.
    right: 'events:write',
    summary: 'What one event would do, stage by stage, without doing it',
    description:
      'Runs one event through the pipeline stages that support a dry run (event filter, validation, entities, alarms, and those of other ' +
      'features), in order, writing nothing: each stage lists what it would do (`would`); a stage that cannot run without writing is listed ' +
      'with `simulated: false` and skipped. The event is checked as `POST /api/v2/event` checks it.',
    tags: ['events'],
    requestDoc: eventSchema,
    errors: {
      [ErrorCodes.BodyInvalidJson]: (e) => ({ status: 400, description: `Malformed JSON: ${e.detail}` }),
      [ErrorCodes.BodyEmpty]: () => ({ status: 400, description: 'Empty request: send one event as JSON.' }),
      [ErrorCodes.BodyUnsupportedType]: () => ({ status: 400, description: 'Empty request: send one event as JSON.' }),
    },
    responses: {
      200: { description: 'The event as the stages left it, and what each stage would do', schema: dryRunReportSchema },
      400: { description: '`Malformed JSON: <detail>`, `Empty request…` or `invalid event: <reason>`' },
    },
    handler: (ctx) => {
      const user = ctx.state.user;
      // The body has no schema (an event's fields are checked as the event route checks them): the kernel's bounds here.
      const body = requestBody(ctx);
      assertWithinInputBounds(body);
      return ctx.state.scope.resolve(PipelineDryRun).run(body, { name: user?.name ?? '', ...(user?.role !== undefined ? { role: user.role } : {}) });
    },
  },
  {
    method: 'POST',
    path: ['/api/v2/event', '/event'],
    right: 'events:write',
    summary: 'Send events',
    description:
      'One event or a list. Valid events are durably queued before the answer and listed in `sent_events`; each refused one is in ' +
      '`failed_events` with the field at fault and why. `retry_events` lists valid events that could not be queued (store unavailable): ' +
      'send them again. A list holds at most `[engine] max_batch_events` events (10,000 by default).',
    tags: ['events'],
    body: false,
    // The hottest write, and the queued events are their own record: counted by the minute in the audit log (one record
    // per sender and minute, whatever the rate), never copied.
    audit: 'tally',
    requestDoc: eventBodySchema,
    responses: {
      200: { description: 'What was queued, refused, or should be sent again', schema: ingestionAnswerSchema },
      400: { description: 'The body is empty, not JSON or not UTF-8' },
      413: { description: 'The body is larger than `[engine] max_body_size`, or the list longer than `[engine] max_batch_events`' },
    },
    handler: async (ctx) => {
      const settings = ctx.state.scope.resolve(EngineSettingsService);
      const { body, wellFormedText } = await readJson(ctx, settings.maxBodyBytes, ctx.state.scope.resolve(kernelRefs.inputLimits).jsonMaxDepth);
      const raws = Array.isArray(body) ? body : [body];
      if (raws.length > settings.maxBatchEvents) {
        throw new HttpError(413, `A request may carry at most ${settings.maxBatchEvents} events; this one has ${raws.length}.`);
      }
      const intake = ctx.state.scope.resolve(EventIntake);
      const nowSec = ctx.state.scope.resolve(kernelRefs.clock).nowSec();
      const user = ctx.state.user;
      const sender = user ? { name: user.name, ...(user.role !== undefined ? { role: user.role } : {}) } : undefined;
      const sent: VigieEvent[] = [];
      const failed: FailedEvent[] = [];
      for (const raw of raws) {
        const outcome = acceptEvent(raw, nowSec, sender, wellFormedText);
        const problem = 'problem' in outcome ? outcome.problem : refusedByEventRoute(outcome.event, settings.allowChangeSeverityToInfo);
        if (problem) failed.push({ event: raw, field: problem.field, error: problem.reason });
        else if ('event' in outcome) sent.push(outcome.event);
      }
      const senderLeft = (): boolean => ctx.req.socket.destroyed;
      try {
        ctx.state.countWrites(await intake.accept(sent, senderLeft));
      } catch (err) {
        if (senderLeft()) ctx.state.log.warn({ events: sent.length }, 'the sender left while its events waited for room: none accepted');
        else ctx.state.log.error({ err, events: sent.length }, 'could not queue events: answered as retry_events');
        return { sent_events: [], failed_events: failed, retry_events: sent };
      }
      return { sent_events: sent, failed_events: failed, retry_events: [] };
    },
  },
];
