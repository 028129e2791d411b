import { injectable } from 'tsyringe';
import { injectRef, kernelRefs, type Clock, type Logger } from '@vigie/kernel';
import { alarmChangesRef, type AlarmChangeService, type AlarmOperation, type AlarmOperationType } from '@vigie/alarms';
import { pbehaviorCreationRef, type PbehaviorCreation } from '@vigie/pbehaviors';

/** What an idle rule or an action does to an alarm: `{type, parameters}` (REFERENCE §5.3, §5.4). */
export interface RuleOperation {
  type: string;
  parameters?: Record<string, unknown> | null;
}

/** Who asks: names the rule in default authors, pbehavior names and logs. */
export interface RuleOperationOrigin {
  /** e.g. `idle rule close-cpu`, `action pause-nagios`. */
  rule: string;
  /** Author of the step when the parameters give none. */
  defaultAuthor: string;
}

/** Largest pbehavior end the original accepts ("forever", `MaxPythonTimestamp`). */
const foreverSec = 253402297199;

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** Seconds of a `duration` given as a number or as the 4.x `{seconds, unit}`. */
function seconds(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'object' && value !== null && typeof (value as { seconds?: unknown }).seconds === 'number') return (value as { seconds: number }).seconds;
  return undefined;
}

/**
 * Applies rule operations to an entity's open alarm through the alarm-change service (the path events take, so the
 * steps and triggers are the same), or creates a pbehavior on the entity. Shared by idle rules and actions.
 */
@injectable()
export class RuleOperationRunner {
  constructor(
    @injectRef(alarmChangesRef) private readonly changes: AlarmChangeService,
    @injectRef(pbehaviorCreationRef) private readonly pbehaviors: PbehaviorCreation,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
    @injectRef(kernelRefs.logger) private readonly logger: Logger,
  ) {}

  /**
   * Runs `operation` on the entity's open alarm. Resolves with null when it was applied, or with the reason it did
   * nothing (logged at info level with the rule's name).
   */
  async run(entityId: string, operation: RuleOperation, origin: RuleOperationOrigin): Promise<string | null> {
    const reason = await this.#run(entityId, operation, origin);
    if (reason === null) this.logger.debug({ entityId, rule: origin.rule, operation: operation.type }, 'rule operation applied');
    else this.logger.info({ entityId, rule: origin.rule, operation: operation.type, reason }, 'rule operation did nothing');
    return reason;
  }

  async #run(entityId: string, operation: RuleOperation, origin: RuleOperationOrigin): Promise<string | null> {
    const parameters = operation.parameters ?? {};
    const author = text(parameters.author) || origin.defaultAuthor;
    const output = text(parameters.output) ?? text(parameters.message) ?? '';
    if (operation.type === 'pbehavior') return this.#pbehavior(entityId, parameters, author, origin);
    const base = { author, output, initiator: 'system' };
    let alarmOperation: AlarmOperation;
    switch (operation.type) {
      case 'ack':
      case 'ackremove':
      case 'cancel':
      case 'declareticket':
        alarmOperation = { ...base, type: operation.type as AlarmOperationType };
        break;
      case 'assocticket': {
        const ticket = text(parameters.ticket);
        if (!ticket) return 'assocticket needs a ticket parameter';
        alarmOperation = { ...base, type: 'assocticket', ticket };
        break;
      }
      case 'changestate': {
        const state = parameters.state;
        if (typeof state !== 'number' || !Number.isInteger(state) || state < 0 || state > 3) return 'changestate needs a state parameter from 0 to 3';
        alarmOperation = { ...base, type: 'changestate', state };
        break;
      }
      case 'snooze': {
        const duration = seconds(parameters.duration);
        if (duration === undefined || !Number.isInteger(duration) || duration <= 0) return 'snooze needs a duration parameter (positive seconds)';
        alarmOperation = { ...base, type: 'snooze', duration };
        break;
      }
      default:
        return `unknown operation type ${JSON.stringify(operation.type)}`;
    }
    let unchanged = 'the alarm did not change';
    const change = await this.changes.apply(entityId, alarmOperation, {}, (reason) => {
      unchanged = reason;
    });
    return change === null ? unchanged : null;
  }

  /** A pbehavior on the entity: `tstart`/`tstop`, or now and `duration` with `start_on_trigger`. */
  async #pbehavior(entityId: string, parameters: Record<string, unknown>, author: string, origin: RuleOperationOrigin): Promise<string | null> {
    let tstart = parameters.tstart;
    let tstop = parameters.tstop;
    if (parameters.start_on_trigger === true) {
      const duration = seconds(parameters.duration);
      if (duration === undefined || duration <= 0) return 'a pbehavior with start_on_trigger needs a duration';
      tstart = this.clock.nowSec();
      tstop = Math.min(foreverSec, (tstart as number) + duration);
    }
    if (typeof tstart !== 'number' || typeof tstop !== 'number') return 'a pbehavior needs tstart and tstop, or start_on_trigger and duration';
    try {
      await this.pbehaviors.forEntity(entityId, {
        name: text(parameters.name) || origin.rule,
        author,
        tstart,
        tstop,
        ...(text(parameters.type) ? { type: text(parameters.type) } : {}),
        ...(text(parameters.reason) !== undefined ? { reason: text(parameters.reason) } : {}),
        ...(text(parameters.rrule) ? { rrule: text(parameters.rrule) } : {}),
      });
      return null;
    } catch (err) {
      return `the pbehavior was refused: ${err instanceof Error ? err.message : String(err)}`;
    }
  }
}
