import { inject, injectable } from 'tsyringe';
import { HttpError, injectRef, kernelRefs, type Clock } from '@vigie/kernel';
import { ActionRepository, type ActionRecord } from './action-repository.js';
import type { Action, ActionBody, ActionDetail, ActionHook } from './schemas.js';

function publicHook(hook: ActionHook): ActionHook {
  return {
    triggers: hook.triggers,
    ...(hook.event_patterns !== undefined && { event_patterns: hook.event_patterns }),
    ...(hook.alarm_patterns !== undefined && { alarm_patterns: hook.alarm_patterns }),
    ...(hook.entity_patterns !== undefined && { entity_patterns: hook.entity_patterns }),
  };
}

/** The list's view of a stored action, built field by field. */
export function publicAction(record: ActionRecord): Action {
  return {
    _id: record._id,
    type: record.type,
    ...(record.hook !== undefined && { hook: publicHook(record.hook) }),
    ...(record.parameters !== undefined && { parameters: record.parameters }),
    ...(record.delay !== undefined && { delay: record.delay }),
    ...(record.priority !== undefined && { priority: record.priority }),
    ...(record.fields !== undefined && { fields: record.fields }),
    ...(record.regex !== undefined && { regex: record.regex }),
    creation_date: record.creation_date,
    last_update_date: record.last_update_date,
  };
}

export function actionDetail(record: ActionRecord): ActionDetail {
  const { hook, parameters, regex, fields, ...rest } = publicAction(record);
  return { ...rest, hook: hook ?? null, parameters: parameters ?? {}, regex: regex ?? null, fields: fields ?? [] };
}

/** What GET answers for an unknown id; PUT on an unknown id answers the same (the original crashed there). */
export function actionNotFound(): HttpError {
  return new HttpError(404, 'failed to get action');
}

/** Creating, replacing, reading and deleting actions (`default_action`). */
@injectable()
export class ActionService {
  constructor(
    @inject(ActionRepository) private readonly actions: ActionRepository,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
  ) {}

  /** Throws the store's `DUPLICATE_KEY` error when the id exists. */
  async create(body: ActionBody): Promise<{ _id: string }> {
    const now = this.clock.nowSec();
    await this.actions.insert(this.record(body, now, now));
    return { _id: body._id };
  }

  /** Replaces the action; `creation_date` is kept. */
  async update(id: string, body: ActionBody): Promise<void> {
    const existing = await this.actions.get(id);
    if (!existing) throw actionNotFound();
    if (body._id !== id) throw new HttpError(400, 'error while updating an action: the _id field should not be modified');
    if (!(await this.actions.replace(this.record(body, existing.creation_date, this.clock.nowSec())))) throw actionNotFound();
  }

  async get(id: string): Promise<ActionDetail | null> {
    const record = await this.actions.get(id);
    return record && actionDetail(record);
  }

  async list(): Promise<Action[]> {
    return (await this.actions.list()).map(publicAction);
  }

  /** Whether an action was deleted. */
  delete(id: string): Promise<boolean> {
    return this.actions.delete(id);
  }

  /** The stored form: known fields only, null and empty `delay` left out. */
  /** The action a body describes, as it would be stored now (the preview's rule). */
  draft(body: ActionBody): ActionRecord {
    const now = this.clock.nowSec();
    return this.record(body, now, now);
  }

  private record(body: ActionBody, created: number, updated: number): ActionRecord {
    const hook = body.hook;
    return {
      _id: body._id,
      type: body.type,
      ...(hook && {
        hook: publicHook({
          triggers: hook.triggers,
          event_patterns: hook.event_patterns,
          alarm_patterns: hook.alarm_patterns,
          entity_patterns: hook.entity_patterns,
        }),
      }),
      ...(body.parameters && { parameters: body.parameters }),
      ...(body.delay && { delay: body.delay }),
      ...(body.priority !== undefined && { priority: body.priority }),
      ...(body.fields && { fields: body.fields }),
      ...(typeof body.regex === 'string' && { regex: body.regex }),
      creation_date: created,
      last_update_date: updated,
    };
  }
}
