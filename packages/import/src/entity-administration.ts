import { randomUUID } from 'node:crypto';
import { injectable } from 'tsyringe';
import { HttpError, hasCode, injectRef, kernelRefs, type Clock, type JsonValue } from '@vigie/kernel';
import { entityRepositoryRef, publicEntity, type EntityRepository } from '@vigie/context-graph';
import { applyPlan, draftRequest } from './apply-plan.js';
import { importFailedCode, readDocument, type CiActionName, type ImportPlan } from './import-document.js';

/** An entity comment (the `comments` field of the entity). */
export interface EntityComment {
  _id: string;
  author: string;
  message: string;
  /** Epoch seconds. */
  timestamp: number;
}

/**
 * Entity administration (`/api/v2/entities`): each change is a one-element import — the import's checks of the
 * element, its rules (links kept reciprocal on both ends, `create` a full replacement, enable/disable histories),
 * one atomic commit through the context graph, announced with `context-graph.entities-changed`, to which the
 * pbehaviors (eids), the weather (watcher dependencies) and the alarms' readers respond as to an import.
 */
@injectable()
export class EntityAdministration {
  constructor(
    @injectRef(entityRepositoryRef) private readonly entities: EntityRepository,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
  ) {}

  async create(element: Record<string, JsonValue>): Promise<Record<string, unknown>> {
    const id = element._id;
    if (typeof id === 'string' && (await this.entities.get(id))) throw new HttpError(400, `invalid entity: an entity with _id ${JSON.stringify(id)} already exists`);
    return this.#apply('create', element);
  }

  async update(id: string, element: Record<string, JsonValue>): Promise<Record<string, unknown>> {
    if (element._id !== undefined && element._id !== id) throw new HttpError(400, 'invalid entity: the _id field should not be modified');
    await this.#existing(id);
    return this.#apply('update', { ...element, _id: id });
  }

  async delete(id: string): Promise<{ deleted: string }> {
    await this.#existing(id);
    await this.#apply('delete', { _id: id });
    return { deleted: id };
  }

  /** Enables or disables one entity, its history recording when. */
  async toggle(id: string, enabled: boolean): Promise<Record<string, unknown>> {
    await this.#existing(id);
    const action = enabled ? 'enable' : 'disable';
    return this.#apply(action, { _id: id, action_properties: { [action]: this.clock.nowSec() } });
  }

  async comment(id: string, author: string, message: string): Promise<EntityComment> {
    const entity = await this.#existing(id);
    const comment: EntityComment = { _id: randomUUID(), author, message, timestamp: this.clock.nowSec() };
    const comments = Array.isArray(entity.comments) ? (entity.comments as unknown as EntityComment[]) : [];
    await this.#apply('update', { _id: id, comments: [...comments, comment] as unknown as JsonValue });
    return comment;
  }

  async deleteComment(id: string, commentId: string): Promise<{ deleted: string }> {
    const entity = await this.#existing(id);
    const comments = Array.isArray(entity.comments) ? (entity.comments as unknown as EntityComment[]) : [];
    if (!comments.some((comment) => comment._id === commentId)) throw new HttpError(404, `no comment with id ${commentId} on entity ${id}`);
    await this.#apply('update', { _id: id, comments: comments.filter((comment) => comment._id !== commentId) as unknown as JsonValue });
    return { deleted: commentId };
  }

  async #existing(id: string): Promise<Record<string, unknown>> {
    const entity = await this.entities.get(id);
    if (!entity) throw new HttpError(404, `no entity with id ${id}`);
    return entity as unknown as Record<string, unknown>;
  }

  /** Checks the element as an import element, applies it to a draft of what it touches, commits, answers the entity. */
  async #apply(action: CiActionName, element: Record<string, JsonValue>): Promise<Record<string, unknown>> {
    let plan: ImportPlan;
    try {
      plan = readDocument({ cis: [{ ...element, action }] });
    } catch (err) {
      throw failure(err);
    }
    const [ci] = plan.cis;
    if (ci) ci.label = `entity ${JSON.stringify(ci.id)}`;
    try {
      const { ids, replaced } = draftRequest(plan);
      await this.entities.commit(applyPlan(plan, await this.entities.draft(ids, replaced)));
    } catch (err) {
      throw failure(err);
    }
    const stored = ci && (await this.entities.get(ci.id));
    return stored ? publicEntity(stored) : {};
  }
}

/** An import failure as this API words it: the import's text without its element label. */
function failure(err: unknown): unknown {
  if (!hasCode(err, importFailedCode)) return err;
  const text = (err as Error).message.replace(/^cis\[0\] \([^)]*\): /, '');
  return new HttpError(400, `invalid entity: ${text}`, { cause: err });
}
