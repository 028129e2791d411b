import { randomUUID } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import { injectRef, kernelRefs, type Clock, type Logger } from '@vigie/kernel';
import { SerialQueues } from '@vigie/feature-kit';
import { alarmChangesRef, alarmReaderRef, AlarmStatus, type Alarm, type AlarmChangeService, type AlarmOperation, type AlarmReader, type AlarmTriggerEvent } from '@vigie/alarms';
import { entityRepositoryRef, type EntityRepository } from '@vigie/context-graph';
import { eventIntakeRef, type EventIntake, type PipelineContext, type VigieEvent } from '@vigie/events';
import type { PatternAlarm, PatternEntity, PatternEvent } from '@vigie/patterns';
import { alarmView, entityView } from '@vigie/webhooks';
import { CorrelationGroupRepository, type CorrelationGroup } from './correlation-groups.js';
import type { MetaAlarmRuleRecord } from './meta-alarm-rule-repository.js';
import { RuleCatalog, type CompiledRule } from './rule-catalog.js';

/** The identity of the meta-alarms the engine creates (REFERENCE §5.7). */
export const metaAlarmOrigin = { connector: 'engine', connector_name: 'correlation', component: 'metaalarm' } as const;
/** Resource name prefix of a created meta-alarm's entity (`meta-alarm-entity-<uuid>/metaalarm`), as the original. */
export const metaAlarmResourcePrefix = 'meta-alarm-entity-';
/** Author of the engine's steps. */
export const correlationAuthor = 'engine.correlation';

/** The event types the engine sends into the pipeline; the meta-alarms stage applies them. */
export const metaAlarmEventTypes = ['metaalarm', 'metaalarmupdated'] as const;

/** Entities read per page when counting those a rate is computed over. */
const entityPage = 1000;
/** How long a counted total is trusted before a rate check counts again. */
const totalTrustedMs = 10_000;
/** Attempts at a group write while other nodes keep writing the group first. */
const maxGroupAttempts = 20;

const stateOf = (alarm: Alarm): number => Number(alarm.v.state.val ?? 0);
const isOpen = (alarm: Alarm): boolean => alarm.v.resolved === undefined || alarm.v.resolved === null;

/**
 * The correlation engine (REFERENCE §5.7). Check events on open malfunctioning alarms go through the rules (from
 * the meta-alarms stage, after the alarms stage); when a rule fires, the engine sends a `metaalarm` or
 * `metaalarmupdated` event into the pipeline, so event filters see it and the entity of a new meta-alarm is created
 * the normal way; the same stage then applies it: the meta-alarm is created or updated and the children attached,
 * through the alarm change service (triggers `create`, `metaalarm`, `metaalarmupdated`). Children's state changes
 * and resolutions reach the meta-alarms through `alarms.trigger` (worst state, `auto_resolve`).
 */
@injectable()
export class CorrelationEngine {
  /** One alarm at a time per rule, so a group is never read and written concurrently. */
  readonly #ruleQueues = new SerialQueues();
  /** Entities counted per rate rule, and when. */
  readonly #totals = new Map<string, { total: number; at: number; key: string }>();

  constructor(
    @inject(RuleCatalog) private readonly catalog: RuleCatalog,
    @inject(CorrelationGroupRepository) private readonly groups: CorrelationGroupRepository,
    @injectRef(alarmChangesRef) private readonly changes: AlarmChangeService,
    @injectRef(alarmReaderRef) private readonly alarms: AlarmReader,
    @injectRef(entityRepositoryRef) private readonly entities: EntityRepository,
    @injectRef(eventIntakeRef) private readonly intake: EventIntake,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
    @injectRef(kernelRefs.logger) private readonly logger: Logger,
  ) {}

  // ── Rules: which alarms join which meta-alarm ─────────────────────────────────────────────────────────────────

  /**
   * A check event whose alarm may join meta-alarms: `changed` is the alarm as the alarms stage stored it, absent when
   * the event changed nothing (the entity's open alarm is then read, only if some rule exists).
   */
  /** Whether no rule exists (known without reading the store): the stage then skips the event at once. */
  withoutRules(): boolean {
    return this.catalog.knownEmpty();
  }

  async correlate(context: PipelineContext, changed: Alarm | undefined): Promise<void> {
    const rules = await this.catalog.rules();
    if (rules.length === 0) return;
    const alarm = changed ?? (await this.alarms.openAlarm(context.entityId));
    if (!alarm || !isOpen(alarm) || Number(alarm.v.status.val) === AlarmStatus.off) return;
    const entity = context.entity as PatternEntity | undefined;
    for (const rule of rules) {
      if (!rule.scope.matches(entity)) continue;
      try {
        await this.#ruleQueues.run(rule.record._id, () => this.#apply(rule, context, alarm));
      } catch (err) {
        this.logger.error({ err, rule: rule.record._id, alarm: alarm._id }, 'meta-alarm rule failed');
      }
    }
  }

  /**
   * For dry runs: what `correlate` would do with the alarm as the alarms stage left it, rule by rule, in words;
   * nothing is written and no meta-alarm event is sent. Groups of `timebased`/`complex` rules are only said to be
   * joined: whether this alarm completes one depends on the group's state when the real event arrives.
   */
  async wouldCorrelate(context: PipelineContext, changed: Alarm | undefined): Promise<{ what: string; rule: string }[]> {
    const rules = await this.catalog.rules();
    if (rules.length === 0) return [];
    const alarm = changed ?? (await this.alarms.openAlarm(context.entityId));
    if (!alarm || !isOpen(alarm) || Number(alarm.v.status.val) === AlarmStatus.off) return [];
    const entity = context.entity as PatternEntity | undefined;
    const effects: { what: string; rule: string }[] = [];
    for (const rule of rules) {
      if (!rule.scope.matches(entity)) continue;
      const id = rule.record._id;
      if (rule.record.type === 'relation') {
        if (alarm.v.resource !== undefined) {
          const parent = await this.alarms.openAlarm(alarm.v.component);
          if (parent && Number(parent.v.status.val) !== AlarmStatus.off && !parent.v.children.includes(alarm.d)) {
            effects.push({ what: `join the alarm of component ${alarm.v.component} as its meta-alarm`, rule: id });
          }
        } else if (typeof alarm.v.meta !== 'string') {
          const resources = await this.alarms.find({ 'v.component': alarm.v.component, 'v.resource': { $exists: true }, 'v.resolved': null }, { fields: { _id: 1 } });
          if (resources.length > 0) effects.push({ what: `become the meta-alarm of the ${resources.length} open resource alarms of its component`, rule: id });
        }
        continue;
      }
      if (!this.#attributesMatch(rule, context, alarm) || (await this.#alreadyChild(rule, alarm))) continue;
      if (rule.record.type === 'attribute') {
        const group = await this.groups.get(id);
        effects.push({ what: group?.meta_entity ? `join the open meta-alarm of rule ${id}` : `create the meta-alarm of rule ${id} with this alarm`, rule: id });
      } else {
        effects.push({ what: `join the group of rule ${id} (its meta-alarm is made once the group reaches the rule's threshold)`, rule: id });
      }
    }
    return effects;
  }

  async #apply(rule: CompiledRule, context: PipelineContext, alarm: Alarm): Promise<void> {
    switch (rule.record.type) {
      case 'relation':
        return this.#relation(rule, context, alarm);
      case 'attribute':
        if (!this.#attributesMatch(rule, context, alarm)) return;
        if (await this.#alreadyChild(rule, alarm)) return;
        return this.#attribute(rule, context, alarm);
      case 'timebased':
      case 'complex':
        if (!this.#attributesMatch(rule, context, alarm)) return;
        if (await this.#alreadyChild(rule, alarm)) return;
        return this.#grouping(rule, context, alarm);
    }
  }

  /** Every given config pattern list matches (alarm, entity, event). */
  #attributesMatch(rule: CompiledRule, context: PipelineContext, alarm: Alarm): boolean {
    const entity = context.entity as PatternEntity | undefined;
    if (!rule.alarmPatterns.every((patterns) => patterns.matches(alarm as unknown as PatternAlarm))) return false;
    if (!rule.entityPatterns.matches(entity)) return false;
    return rule.eventPatterns === null || rule.eventPatterns.matches(context.event as PatternEvent, entity);
  }

  /** Whether the alarm is already a child of an open meta-alarm of the rule (it is then skipped). */
  async #alreadyChild(rule: CompiledRule, alarm: Alarm): Promise<boolean> {
    if (alarm.v.parents.length === 0) return false;
    const parents = await this.alarms.openAlarms(alarm.v.parents, { 'v.steps': 0 });
    return [...parents.values()].some((parent) => parent.v.meta === rule.record._id);
  }

  /**
   * `relation`: a resource alarm joins the open malfunctioning alarm of its component, which becomes the meta-alarm;
   * a component alarm that is no meta-alarm yet takes the open resource alarms of its component.
   */
  async #relation(rule: CompiledRule, context: PipelineContext, alarm: Alarm): Promise<void> {
    const component = alarm.v.component;
    if (alarm.v.resource !== undefined) {
      const parent = await this.alarms.openAlarm(component);
      if (!parent || Number(parent.v.status.val) === AlarmStatus.off) return;
      if (parent.v.children.includes(alarm.d)) return;
      await this.#send(rule, 'metaalarmupdated', parent, context.event, [alarm.d], { alarm, entity: context.entity });
      return;
    }
    if (typeof alarm.v.meta === 'string') return;
    const resources = await this.alarms.find({ 'v.component': component, 'v.resource': { $exists: true }, 'v.resolved': null }, { fields: { 'v.steps': 0 } });
    if (resources.length === 0) return;
    await this.#send(rule, 'metaalarmupdated', alarm, context.event, resources.map((resource) => resource.d), {});
  }

  /** `attribute`: every matching alarm joins the rule's one open meta-alarm, created by the first. */
  async #attribute(rule: CompiledRule, context: PipelineContext, alarm: Alarm): Promise<void> {
    await this.#withGroup(rule.record._id, (stored) => {
      const group = stored ? copyGroup(stored) : { _id: rule.record._id, open_time: alarm.v.last_update_date, members: [] };
      return this.#feedMetaAlarm(rule, group, stored, context, [alarm.d], { alarm, entity: context.entity });
    });
  }

  /**
   * `timebased` and `complex`: matching alarms gather in the rule's group; once the group holds `threshold_count`
   * open alarms (or `threshold_rate` of the entities), its meta-alarm is created with them, and later ones join it.
   * An alarm arriving after the group's first + `time_interval` starts a new group from it.
   */
  async #grouping(rule: CompiledRule, context: PipelineContext, alarm: Alarm): Promise<void> {
    const ruleId = rule.record._id;
    const t = alarm.v.last_update_date;
    await this.#withGroup(ruleId, async (stored) => {
      let group = stored ? copyGroup(stored) : null;
      if (group && t > group.open_time + rule.intervalSec) {
        this.logger.info({ rule: ruleId, alarm: alarm._id, open_time: group.open_time }, 'meta-alarm group restarted: the alarm came after the time interval');
        group = null;
      }
      group ??= { _id: ruleId, open_time: t, members: [] };
      if (!group.members.some((member) => member.alarm === alarm._id)) group.members.push({ alarm: alarm._id, entity: alarm.d, t });
      // Members resolved since they joined no longer count, nor are they kept (the group stays as small as what is open).
      const open = await this.alarms.find({ _id: { $in: group.members.map((member) => member.alarm) }, 'v.resolved': null }, { fields: { _id: 1 } });
      const openIds = new Set(open.map((member) => member._id));
      group.members = group.members.filter((member) => openIds.has(member.alarm));
      const children = group.members.map((member) => member.entity);
      if (!(await this.#thresholdReached(rule, children.length))) return this.groups.save(group, stored);
      return this.#feedMetaAlarm(rule, group, stored, context, children, { alarm, entity: context.entity });
    });
  }

  /**
   * Reads the rule's group and lets `decide` change it, again as long as another node stored the group first
   * (`decide` resolves with whether its write was stored): nodes correlating alarms of one rule take turns.
   */
  async #withGroup(ruleId: string, decide: (stored: CorrelationGroup | null) => Promise<boolean>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      if (await decide(await this.groups.get(ruleId))) return;
      if (attempt >= maxGroupAttempts) throw new Error(`the group of meta-alarm rule ${ruleId} kept changing; gave up after ${maxGroupAttempts} attempts`);
    }
  }

  async #thresholdReached(rule: CompiledRule, count: number): Promise<boolean> {
    const threshold = rule.threshold;
    if (threshold === null) return false;
    if (threshold.kind === 'count') return count >= threshold.count;
    const total = await this.#total(rule, false);
    if (total === 0 || count / total < threshold.rate) return false;
    // As the original: a rate that looks reached is checked again against a fresh count of the entities.
    const fresh = await this.#total(rule, true);
    return fresh !== 0 && count / fresh >= threshold.rate;
  }

  /** How many entities match the rule's total patterns (read through the context graph's repository). */
  async #total(rule: CompiledRule, fresh: boolean): Promise<number> {
    const key = JSON.stringify(rule.record.config?.total_entity_patterns ?? rule.record.config?.entity_patterns ?? null);
    const known = this.#totals.get(rule.record._id);
    if (!fresh && known && known.key === key && this.clock.nowMs() - known.at < totalTrustedMs) return known.total;
    let total = 0;
    for (let skip = 0; ; skip += entityPage) {
      const page = await this.entities.find({ skip, limit: entityPage });
      total += page.filter((entity) => rule.totalPatterns.matches(entity as unknown as PatternEntity)).length;
      if (page.length < entityPage) break;
    }
    this.#totals.set(rule.record._id, { total, at: this.clock.nowMs(), key });
    return total;
  }

  /**
   * Sends the group's children to its meta-alarm: the open one it feeds, or a new one (a new entity) when it feeds
   * none yet or the one it fed was resolved. The group is stored (over `stored`, as it was read) before the event is
   * sent, so a crash in between sends it again when the child's event is redelivered (applying it is idempotent).
   * False, nothing sent, when another node stored the group first.
   */
  async #feedMetaAlarm(rule: CompiledRule, group: CorrelationGroup, stored: CorrelationGroup | null, context: PipelineContext, children: string[], last: LastChild): Promise<boolean> {
    let target: Alarm | null = null;
    if (group.meta_entity !== undefined) {
      // One read, so that an alarm created between two reads is not taken for a resolved one (by another node, say):
      // the open alarm it feeds; no alarm yet, still on its way through the pipeline (send to it again); or resolved
      // ones only (a new meta-alarm, on a new entity).
      const made = await this.alarms.find({ d: group.meta_entity }, { fields: { 'v.steps': 0 } });
      target = made.find(isOpen) ?? null;
      if (!target && made.length > 0) delete group.meta_entity;
    }
    group.meta_entity ??= `${metaAlarmResourcePrefix}${randomUUID()}/${metaAlarmOrigin.component}`;
    if (!(await this.groups.save(group, stored))) return false;
    const resource = group.meta_entity.slice(0, -(metaAlarmOrigin.component.length + 1));
    const identity = target ?? { v: { ...metaAlarmOrigin, resource } };
    await this.#send(rule, target ? 'metaalarmupdated' : 'metaalarm', identity, context.event, children, last);
    return true;
  }

  /** Queues the event that makes `children` children of the meta-alarm on `identity`'s entity. */
  async #send(
    rule: CompiledRule,
    type: (typeof metaAlarmEventTypes)[number],
    identity: { v: { connector: string; connector_name: string; component: string; resource?: string } },
    cause: VigieEvent,
    children: string[],
    last: LastChild,
  ): Promise<void> {
    const lastAlarm = last.alarm ?? (await this.alarms.openAlarm(children[children.length - 1] ?? ''));
    const lastEntity = last.entity ?? (lastAlarm ? await this.entities.get(lastAlarm.d) : undefined);
    const event: VigieEvent = {
      event_type: type,
      source_type: identity.v.resource === undefined ? 'component' : 'resource',
      connector: identity.v.connector,
      connector_name: identity.v.connector_name,
      component: identity.v.component,
      ...(identity.v.resource === undefined ? {} : { resource: identity.v.resource }),
      timestamp: cause.timestamp,
      output: this.#output(rule.record, rule, children.length, lastAlarm, lastEntity),
      author: correlationAuthor,
      metaalarm_rule_id: rule.record._id,
      ma_children: children,
    };
    await this.intake.accept([event]);
    this.logger.debug({ rule: rule.record._id, type, children }, 'meta-alarm event sent');
  }

  /** `output_template` over `.Count`, `.Children` (the last attached child: `.Alarm`, `.Entity`) and `.Rule`. */
  #output(record: MetaAlarmRuleRecord, rule: CompiledRule | undefined, count: number, child: Alarm | null | undefined, entity: Record<string, unknown> | null | undefined): string {
    const template = rule?.output ?? null;
    if (template === null) return '';
    try {
      return template.render({
        Count: count,
        Children: { Alarm: child ? alarmView(child) : {}, Entity: entityView(entity) },
        Rule: ruleView(record),
      });
    } catch (err) {
      this.logger.warn({ rule: record._id, err }, 'meta-alarm output_template failed: the output is left empty');
      return '';
    }
  }

  // ── Applying the meta-alarm events ─────────────────────────────────────────────────────────────────────────────

  /**
   * A `metaalarm` / `metaalarmupdated` event (from the engine, or sent by a connector as in the original): the
   * event's entity gets its meta-alarm (created when it has no open alarm), the children it lacks, the output and
   * the worst state of its open children; each new child gets the parent in `v.parents` and a `metaalarmattach` step.
   */
  async applyMetaAlarmEvent(context: PipelineContext): Promise<void> {
    const event = context.event;
    const ruleId = event.metaalarm_rule_id;
    const listed = event.ma_children;
    if (typeof ruleId !== 'string' || !Array.isArray(listed) || !listed.every((child) => typeof child === 'string')) {
      context.trace('meta-alarms', 'meta-alarm event ignored: it needs metaalarm_rule_id and the ma_children entity ids');
      return;
    }
    const record = await this.catalog.get(ruleId);
    const rule = record ? (await this.catalog.rules()).find((compiled) => compiled.record._id === ruleId) : undefined;
    const existing = await this.alarms.openAlarm(context.entityId);
    const known = new Set(existing?.v.children ?? []);
    const added = [...new Set(listed as string[])].filter((child) => !known.has(child) && child !== context.entityId);
    const children = [...(existing?.v.children ?? []), ...added];
    const open = await this.alarms.openAlarms(children, { 'v.steps': 0 });
    const attachable = added.filter((child) => open.has(child));
    if (!existing && attachable.length === 0) {
      context.trace('meta-alarms', 'meta-alarm not created: none of its children has an open alarm');
      return;
    }
    const worstChild = Math.max(0, ...[...open.values()].map(stateOf));
    const lastEntityId = attachable[attachable.length - 1];
    // Read in full: the template may read its steps.
    const lastChild = lastEntityId === undefined ? null : await this.alarms.openAlarm(lastEntityId);
    const lastEntity = lastChild ? await this.entities.get(lastChild.d) : undefined;
    // Without a template, the event's output (empty from the engine; an event filter may have set one).
    const output = record?.output_template ? this.#output(record, rule, open.size, lastChild, lastEntity) : typeof event.output === 'string' ? event.output : undefined;
    const operation: AlarmOperation = {
      type: 'metaalarm',
      timestamp: event.timestamp,
      author: correlationAuthor,
      initiator: 'system',
      metaRule: ruleId,
      children: attachable,
      ...(existing ? {} : await this.#newMetaAlarmId(context.entityId)),
      // A new meta-alarm is at least minor (the original); an open one never drops below its worst child on attach.
      state: existing ? Math.max(stateOf(existing), worstChild) : Math.max(1, worstChild),
      ...(output === undefined || (output === '' && existing) ? {} : { output }),
      origin: {
        connector: event.connector,
        connector_name: event.connector_name,
        component: event.component ?? '',
        ...(event.source_type === 'resource' && event.resource !== undefined ? { resource: event.resource } : {}),
      },
    };
    const change = await this.changes.apply(context.entityId, operation, { eventId: context.eventId, event, entity: context.entity }, (reason) =>
      context.trace('meta-alarms', `meta-alarm unchanged: ${reason}`, { entity: context.entityId }),
    );
    const meta = change?.alarm ?? existing;
    if (!meta) return;
    const step = `Rule: {${record?.name ?? ruleId}}\n Displayname: {${meta.v.display_name}}\n Entity: {${meta.d}}`;
    for (const child of attachable) {
      await this.changes.apply(child, { type: 'metaalarmattach', parent: meta.d, author: correlationAuthor, output: step, initiator: 'system' }, {}, (reason) =>
        context.trace('meta-alarms', `child not attached: ${reason}`, { child }),
      );
    }
    context.trace('meta-alarms', change?.created ? 'meta-alarm created' : 'meta-alarm updated', { alarm: meta._id, children: attachable });
  }

  /**
   * The id of the first alarm of a meta-alarm entity the engine made (`meta-alarm-entity-<uuid>/metaalarm`): its
   * uuid. Two nodes may each send the event that creates it (one chose the entity, the other fed the group before the
   * alarm existed): the alarm is stored once, and the other event's children join it (the alarm the other node just
   * created does not count here). An entity whose alarm was resolved gets a new one with a random id, as any entity.
   */
  async #newMetaAlarmId(entityId: string): Promise<{ newAlarmId?: string }> {
    const uuid = new RegExp(`^${metaAlarmResourcePrefix}([0-9a-f-]{36})/${metaAlarmOrigin.component}$`).exec(entityId)?.[1];
    if (uuid === undefined) return {};
    if ((await this.alarms.find({ d: entityId, 'v.resolved': { $ne: null } }, { limit: 1, fields: { _id: 1 } })).length > 0) return {};
    return { newAlarmId: uuid };
  }

  // ── Children's changes: worst state, auto_resolve ──────────────────────────────────────────────────────────────

  /** The `alarms.trigger` subscriber: a child's state change or resolution reaches its open meta-alarms. */
  async onTrigger({ trigger, alarm }: AlarmTriggerEvent): Promise<void> {
    if (alarm.v.parents.length === 0) return;
    if (trigger === 'stateinc' || trigger === 'statedec' || trigger === 'changestate') {
      for (const parent of alarm.v.parents) await this.#worstState(parent);
    } else if (trigger === 'resolve') {
      for (const parent of alarm.v.parents) await this.#autoResolve(parent, alarm);
    }
  }

  /** The meta-alarm takes the worst state of its open children. */
  async #worstState(parentEntity: string): Promise<void> {
    const meta = await this.alarms.openAlarm(parentEntity);
    if (!meta || typeof meta.v.meta !== 'string') return;
    const children = await this.alarms.openAlarms(meta.v.children, { 'v.steps': 0 });
    const attached = [...children.values()].filter((child) => child.v.parents.includes(parentEntity));
    if (attached.length === 0) return;
    const worst = Math.max(...attached.map(stateOf));
    if (worst === stateOf(meta)) return;
    await this.changes.apply(parentEntity, { type: 'metaalarm', state: worst, author: correlationAuthor, initiator: 'system' });
  }

  /** With `auto_resolve`, the meta-alarm is resolved once none of its children is open any more. */
  async #autoResolve(parentEntity: string, resolvedChild: Alarm): Promise<void> {
    const meta = await this.alarms.openAlarm(parentEntity);
    if (!meta || typeof meta.v.meta !== 'string') return;
    const rule = await this.catalog.get(meta.v.meta);
    if (rule?.auto_resolve !== true) {
      this.logger.debug({ metaalarm: meta._id, rule: meta.v.meta }, 'meta-alarm left open: its rule has no auto_resolve');
      return;
    }
    const children = await this.alarms.openAlarms(meta.v.children, { 'v.steps': 0 });
    const stillOpen = [...children.values()].filter((child) => child._id !== resolvedChild._id && child.v.parents.includes(parentEntity));
    if (stillOpen.length > 0) return;
    this.logger.info({ metaalarm: meta._id, rule: meta.v.meta }, 'meta-alarm resolved: all its children are resolved');
    await this.changes.apply(parentEntity, { type: 'resolve', author: correlationAuthor, initiator: 'system' });
  }
}

/** A group to change without changing the one read (compared with the stored one when written). */
function copyGroup(group: CorrelationGroup): CorrelationGroup {
  return { ...group, members: [...group.members] };
}

/** The last child an output template sees, when the caller already has it. */
interface LastChild {
  alarm?: Alarm;
  entity?: Record<string, unknown> | undefined;
}

/** `.Rule`: the original's `metaalarm.Rule` Go field names. */
function ruleView(record: MetaAlarmRuleRecord): Record<string, unknown> {
  const config = record.config ?? {};
  return {
    ID: record._id,
    Name: record.name,
    Type: record.type,
    AutoResolve: record.auto_resolve ?? false,
    OutputTemplate: record.output_template ?? '',
    Patterns: { EntityPatterns: record.patterns?.entity_patterns ?? null },
    Config: {
      TimeInterval: config.time_interval,
      ThresholdCount: config.threshold_count,
      ThresholdRate: config.threshold_rate,
      AlarmPatterns: config.alarm_patterns ?? null,
      EntityPatterns: config.entity_patterns ?? null,
      EventPatterns: config.event_patterns ?? null,
      TotalEntityPatterns: config.total_entity_patterns ?? null,
    },
  };
}
