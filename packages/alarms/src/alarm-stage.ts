import { PipelineOrder, pipelineDataKey, type PipelineContext, type PipelineStage, type VigieEvent } from '@vigie/events';
import type { AlarmChangeService, AppliedChange } from './alarm-changes.js';
import type { TriggerDryRun } from './refs.js';
import type { AlarmRepository } from './alarm-repository.js';
import type { AlarmOperation, AlarmOperationType, AlarmOrigin } from './lifecycle.js';

/** Event types that operate on the entity's open alarm (REFERENCE §6.3); `check` may also create one. */
const operationTypes: ReadonlySet<string> = new Set<AlarmOperationType>([
  'check',
  'ack',
  'ackremove',
  'cancel',
  'uncancel',
  'comment',
  'done',
  'assocticket',
  'declareticket',
  'changestate',
  'keepstate',
  'snooze',
  'unsnooze',
]);

/** Key under which the stage leaves the stored change for later stages. */
export const alarmChangeDataKey = pipelineDataKey<AppliedChange>('alarms.change');

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The alarm operation an event asks for, or null for events that do not touch alarms (perf, …). */
export function operationOf(event: VigieEvent): AlarmOperation | null {
  if (!operationTypes.has(event.event_type)) return null;
  const type = event.event_type as AlarmOperationType;
  const connectorAuthor = `${event.connector}.${event.connector_name}`;
  // Built field by field rather than spread: this runs for every event.
  const operation: AlarmOperation = { type, timestamp: event.timestamp, output: text(event.output) ?? '' };
  if (typeof event.state === 'number') operation.state = event.state;
  if (type === 'check') {
    operation.author = connectorAuthor;
    operation.initiator = 'external';
    // A long output that is not a string reads as "" (the original's event route does the same).
    operation.longOutput = event.long_output === undefined ? undefined : (text(event.long_output) ?? '');
    const origin: AlarmOrigin = { connector: event.connector, connector_name: event.connector_name, component: event.component ?? '' };
    if (event.source_type === 'resource' && event.resource !== undefined) origin.resource = event.resource;
    operation.origin = origin;
    return operation;
  }
  operation.author = text(event.author) ?? connectorAuthor;
  operation.initiator = 'user';
  const role = text(event.role);
  if (role !== undefined) operation.role = role;
  const ticket = text(event.ticket);
  if (ticket !== undefined) operation.ticket = ticket;
  // The ticket's address and system, kept in the ticket step's `data` (the action route's `url` and `system_name`).
  const ticketUrl = text(event.ticket_url);
  const ticketSystem = text(event.ticket_system_name);
  if (ticketUrl !== undefined || ticketSystem !== undefined) {
    operation.ticketData = { ...(ticketUrl === undefined ? {} : { ticket_url: ticketUrl }), ...(ticketSystem === undefined ? {} : { ticket_system_name: ticketSystem }) };
  }
  if (typeof event.duration === 'number') operation.duration = event.duration;
  return operation;
}

/**
 * The alarms stage (order 400): turns each event into an alarm operation through the change service. A disabled
 * entity gets no alarm. An ack of a component with `ack_resources` also acknowledges the open alarms of its
 * resources that are not acknowledged yet.
 */
export function alarmStage(changes: AlarmChangeService, alarms: AlarmRepository, subscribers: () => readonly TriggerDryRun[] = () => []): PipelineStage {
  return {
    name: 'alarms',
    order: PipelineOrder.alarms,
    async process(context: PipelineContext): Promise<void> {
      const event = context.event;
      const operation = operationOf(event);
      if (operation === null) return;
      if (context.entity?.enabled === false) {
        context.trace('alarms', 'entity disabled: no alarm change', { entity: context.entityId });
        return;
      }
      const cause = { eventId: context.eventId, redelivered: context.redelivered, event, entity: context.entity };
      // Traces are built for `debug` events only: most events (OK checks of entities without alarm) change nothing.
      const tracing = event.debug === true;
      const change = await changes.apply(context.entityId, operation, cause, (reason) => {
        if (tracing) context.trace('alarms', `alarm unchanged: ${reason}`, { entity: context.entityId, operation: operation.type });
      });
      if (change) {
        context.data.set(alarmChangeDataKey, change);
        if (tracing) context.trace('alarms', `alarm ${change.created ? 'created' : 'changed'}`, { alarm: change.alarm._id, triggers: change.triggers });
      }
      if (acksResources(event)) {
        const acked = await acknowledgeResources(changes, alarms, operation, event);
        if (acked.length > 0) context.trace('alarms', `acknowledged ${acked.length} resource alarm(s) of ${String(event.component)}`);
      }
    },
    async dryRun(context) {
      const operation = operationOf(context.event);
      if (operation === null) return context.would('change no alarm: the event type operates on none', { event_type: context.event.event_type });
      if (context.entity?.enabled === false) return context.would('change no alarm: the entity is disabled');
      const { change, reason } = await changes.simulate(context.entityId, operation);
      if (!change) return context.would('leave the alarm unchanged', { reason });
      context.data.set(alarmChangeDataKey, change);
      const v = change.alarm.v;
      context.would(change.created ? 'create an alarm' : 'change the alarm', {
        alarm: change.alarm._id,
        state: v.state.val,
        status: v.status.val,
        triggers: change.triggers,
      });
      for (const trigger of change.triggers) {
        const payload = { trigger, alarm: change.alarm, entity: context.entity, event: context.event };
        for (const subscriber of subscribers()) for (const fired of await subscriber.wouldFire(payload)) context.would(fired, { trigger, by: subscriber.name });
      }
      if (context.event.event_type === 'ack' && context.event.ack_resources === true && context.event.source_type === 'component') {
        context.would('acknowledge the open alarms of the component\'s resources');
      }
    },
  };
}

/** An ack of a component that asks for its resources to be acknowledged too (`ack_resources`). */
export function acksResources(event: VigieEvent): boolean {
  return event.event_type === 'ack' && event.ack_resources === true && event.source_type === 'component' && typeof event.component === 'string' && event.component !== '';
}

/** Acknowledges the open, not yet acknowledged resource alarms of the event's component; the changes made. */
export async function acknowledgeResources(changes: AlarmChangeService, alarms: AlarmRepository, operation: AlarmOperation, event: VigieEvent): Promise<AppliedChange[]> {
  const open = await alarms.find({ 'v.component': event.component, 'v.resource': { $exists: true }, 'v.resolved': null, 'v.ack': null });
  const acked: AppliedChange[] = [];
  for (const alarm of open) {
    // Already acknowledged resources are left alone, which also makes a redelivered event harmless.
    const change = await changes.apply(alarm.d, operation, { event }, () => undefined);
    if (change) acked.push(change);
  }
  return acked;
}
