import { inject, injectable } from 'tsyringe';
import { HttpError, injectRef, kernelRefs, type AuthenticatedUser, type Clock } from '@vigie/kernel';
import { durationWithUnitSeconds } from '@vigie/input';
import { entityRepositoryRef, type EntityRepository } from '@vigie/context-graph';
import { acceptEvent, engineSettingsRef, refusedByEventRoute, type EngineSettings, type VigieEvent } from '@vigie/events';
import type { ActionBody, AlarmAction } from './action-schemas.js';
import type { Alarm } from './alarm.js';
import { AlarmChangeService } from './alarm-changes.js';
import { AlarmListService, type AlarmOutput } from './alarm-list.js';
import { AlarmRepository } from './alarm-repository.js';
import { acknowledgeResources, acksResources, operationOf } from './alarm-stage.js';

/** The source type of the events that name an alarm's entity. */
function sourceTypeOf(alarm: Alarm): 'resource' | 'component' | 'connector' {
  if (alarm.v.resource !== undefined) return 'resource';
  return alarm.d === alarm.v.component ? 'component' : 'connector';
}

/**
 * Operations people apply to an alarm by its id. Each is the event of that type an operator would send for the
 * alarm's entity (`author` the authenticated user, as the event route sets it), turned into the alarm operation and
 * applied by the alarm-change service exactly as the pipeline's alarms stage applies it: same steps, same triggers
 * (the trigger payloads carry the event, so event patterns of actions and webhooks match as for a sent event), and
 * the change is stored before the answer.
 */
@injectable()
export class AlarmActionService {
  constructor(
    @inject(AlarmRepository) private readonly alarms: AlarmRepository,
    @inject(AlarmChangeService) private readonly changes: AlarmChangeService,
    @inject(AlarmListService) private readonly list: AlarmListService,
    @injectRef(entityRepositoryRef) private readonly entities: EntityRepository,
    @injectRef(engineSettingsRef) private readonly engine: EngineSettings,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
  ) {}

  /**
   * Applies `action` to alarm `id` and answers the alarm as stored. 404 for an unknown alarm; 409 for a resolved
   * alarm, a disabled entity, or an action that changes nothing (`ackremove` of an alarm not acknowledged, …).
   */
  async apply(id: string, action: AlarmAction, body: ActionBody, user: AuthenticatedUser | undefined): Promise<AlarmOutput> {
    const alarm = await this.alarms.get(id);
    if (!alarm) throw new HttpError(404, `No alarm with id ${id}`, { name: 'not_found' });
    if (alarm.v.resolved !== undefined) throw conflict(id, action, `alarm ${id} is resolved`);
    const sender = user ? { name: user.name, ...(user.role !== undefined ? { role: user.role } : {}) } : undefined;
    const accepted = acceptEvent(this.#event(alarm, action, body), this.clock.nowSec(), sender);
    if ('problem' in accepted) throw new HttpError(400, accepted.problem.reason);
    const event = accepted.event;
    const refused = refusedByEventRoute(event, this.engine.allowChangeSeverityToInfo);
    if (refused) throw new HttpError(400, refused.reason);
    const entity = await this.entities.get(alarm.d);
    if (entity?.enabled === false) throw conflict(id, action, `entity ${alarm.d} is disabled`);
    const operation = operationOf(event);
    if (!operation) throw new Error(`${action} is not an alarm operation`);
    let reason = 'nothing changed';
    const change = await this.changes.apply(alarm.d, { ...operation, alarmId: id }, { event, ...(entity ? { entity: entity as Record<string, unknown> } : {}) }, (why) => {
      reason = why;
    });
    if (!change) throw conflict(id, action, reason);
    if (acksResources(event)) await acknowledgeResources(this.changes, this.alarms, operation, event);
    return this.list.show(change.alarm);
  }

  /** The event an operator would send to apply `action` to the alarm. */
  #event(alarm: Alarm, action: AlarmAction, body: ActionBody): Record<string, unknown> {
    const v = alarm.v;
    const sourceType = sourceTypeOf(alarm);
    return {
      event_type: action,
      source_type: sourceType,
      connector: v.connector,
      connector_name: v.connector_name,
      component: v.component,
      ...(sourceType === 'resource' ? { resource: v.resource } : {}),
      output: body.comment ?? '',
      ...(body.ack_resources === undefined ? {} : { ack_resources: body.ack_resources }),
      ...(body.state === undefined ? {} : { state: body.state }),
      ...(body.duration === undefined ? {} : { duration: durationWithUnitSeconds(body.duration) }),
      ...(body.ticket === undefined ? {} : { ticket: body.ticket }),
      ...(body.url === undefined ? {} : { ticket_url: body.url }),
      ...(body.system_name === undefined ? {} : { ticket_system_name: body.system_name }),
    } satisfies Partial<VigieEvent>;
  }
}

function conflict(id: string, action: AlarmAction, reason: string): HttpError {
  return new HttpError(409, `Cannot ${action} alarm ${id}: ${reason}`, { name: 'conflict' });
}
