import { injectable } from 'tsyringe';
import { injectRef, kernelRefs, type Clock } from '@vigie/kernel';
import { type HealthRegistry, type HealthResult } from '@vigie/observability';

/** The services of the spec's healthcheck summary, in the order the answer lists them. */
export const serviceIds = ['amqp', 'cache', 'database', 'engines', 'time_series'] as const;
export type ServiceId = (typeof serviceIds)[number];

/** The spec's healthcheck summary: per service "" when healthy, else what failed. */
export interface HealthSummary {
  amqp: string;
  cache: string;
  database: string;
  engines: string;
  time_series: string;
  timestamp: number;
  overall: boolean;
}

const isServiceId = (name: string): name is ServiceId => (serviceIds as readonly string[]).includes(name);

/**
 * The service a registered check counts toward: `amqp.broker` ⇒ `amqp`. A check named otherwise (`idle-rules`) is
 * one of Vigie's own components doing background work, which is what the spec's `engines` stands for.
 */
export function serviceOf(checkName: string): ServiceId {
  const prefix = checkName.split('.', 1)[0] as string;
  return isServiceId(prefix) ? prefix : 'engines';
}

/**
 * `criticals=amqp,cache` ⇒ the services `overall` considers. Unknown names are ignored (so none valid ⇒ an empty
 * set ⇒ `overall` true); names are case-insensitive and `timeseries`, the spec description's spelling, means `time_series`.
 */
export function parseCriticals(list: string): Set<ServiceId> {
  const critical = new Set<ServiceId>();
  for (const entry of list.split(',')) {
    const name = entry.trim().toLowerCase();
    const id = name === 'timeseries' ? 'time_series' : name;
    if (isServiceId(id)) critical.add(id);
  }
  return critical;
}

/** One failed check as it reads in the summary: its own words, named when it is not one of the five services. */
function failureText(checkName: string, result: HealthResult): string {
  const message = result.message.trim() === '' ? `${checkName} failed` : result.message;
  return isServiceId(checkName.split('.', 1)[0] as string) ? message : `${checkName}: ${message}`;
}

/** Runs every check features registered in the kernel's health registry and folds them into the spec's summary. */
@injectable()
export class HealthSummaryService {
  #running: Promise<Record<ServiceId, string>> | undefined;

  constructor(
    @injectRef(kernelRefs.health) private readonly registry: HealthRegistry,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
  ) {}

  /** `overall` is the AND of the `critical` services; every service is shown whatever `critical` holds. */
  async summary(critical: ReadonlySet<ServiceId>): Promise<HealthSummary> {
    const failures = await this.#failuresByService();
    return {
      amqp: failures.amqp,
      cache: failures.cache,
      database: failures.database,
      engines: failures.engines,
      time_series: failures.time_series,
      timestamp: this.clock.nowSec(),
      overall: [...critical].every((id) => failures[id] === ''),
    };
  }

  /** Requests that arrive while the checks run share that run: polling monitors must not multiply broker connections. */
  #failuresByService(): Promise<Record<ServiceId, string>> {
    this.#running ??= this.#runChecks().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  async #runChecks(): Promise<Record<ServiceId, string>> {
    const results = await this.registry.runAll();
    const failures: Record<ServiceId, string[]> = { amqp: [], cache: [], database: [], engines: [], time_series: [] };
    for (const name of Object.keys(results).sort()) {
      const result = results[name] as HealthResult;
      if (!result.ok) failures[serviceOf(name)].push(failureText(name, result));
    }
    return {
      amqp: failures.amqp.join('; '),
      cache: failures.cache.join('; '),
      database: failures.database.join('; '),
      engines: failures.engines.join('; '),
      time_series: failures.time_series.join('; '),
    };
  }
}
