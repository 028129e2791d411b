import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { inject, injectable } from 'tsyringe';
import { entityRepositoryRef, type EntityRepository, type GraphChanges, type GraphDraft } from '@vigie/context-graph';
import { ErrorCodes, injectRef, kernelRefs, errorDetail, hasCode, type Clock, type EventBus, type JobRun, type Logger, type Scheduler } from '@vigie/kernel';
import { applyPlan, draftRequest, importStats } from './apply-plan.js';
import { decodeBody, importFailedCode, readDocument, type ImportPlan } from './import-document.js';
import { ImportFiles } from './import-files.js';
import { ImportRepository, type ImportOutcome, type ImportRecord, type ImportStatus, type ImportWorker } from './import-repository.js';
import { importStatusChangedEvent } from './refs.js';
import { execTime } from './time-format.js';

export const processJobName = 'import.process';

/** Data of an `import.process` job: the import whose submission queued it (for logs; a run takes the oldest). */
export interface ProcessJobData {
  importId?: string;
}

/** What processing uses of a job run: keeping its lock while an import runs long. */
type RunProgress = Pick<JobRun, 'touch'>;

/** How long a claim on an import holds without renewal; renewed every third of it while processing. */
export const leaseMs = 30_000;

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Processes imports one at a time in submission order. A run always takes the oldest unfinished import, never
 * the one that queued it, so the order holds whatever order jobs run in, and several processes sharing the
 * store never process two imports at once: the oldest import, while claimed by a live worker, blocks the
 * others. A claim is a lease; a worker that dies (crash, kill) loses it when it expires, or at once when its
 * process is seen gone on the same host, and the import is processed again from its file.
 */
@injectable()
export class ImportProcessor {
  readonly #worker: ImportWorker = { host: hostname(), pid: process.pid, instance: randomUUID() };

  constructor(
    @inject(ImportRepository) private readonly records: ImportRepository,
    @inject(ImportFiles) private readonly files: ImportFiles,
    @injectRef(entityRepositoryRef) private readonly entities: EntityRepository,
    @injectRef(kernelRefs.scheduler) private readonly scheduler: Scheduler,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
    @injectRef(kernelRefs.eventBus) private readonly eventBus: EventBus,
    @injectRef(kernelRefs.logger) private readonly logger: Logger,
  ) {}

  /** Processes unfinished imports, oldest first, until none is left or another live worker holds the oldest. */
  async processQueue(run: RunProgress): Promise<void> {
    for (;;) {
      const head = await this.records.head();
      if (!head) return;
      if (head.status === 'ongoing' && this.#heldByAnother(head)) {
        await this.#wakeUpWhenExpired(head);
        return;
      }
      const claimed = await this.records.claim(head, this.#worker, this.clock.nowMs() + leaseMs);
      if (!claimed) continue;
      try {
        await this.#process(claimed, run);
      } catch (err) {
        // The outcome could not be recorded (store unavailable): the claim expires and a later run retries.
        this.logger.error({ err, importId: claimed._id }, 'import processing stopped; it will be retried when its claim expires');
        await this.#wakeUpWhenExpired(claimed);
        return;
      }
    }
  }

  /** At start: drops files no unfinished import needs, and queues a run if imports wait and no run is queued. */
  async recover(): Promise<void> {
    const waiting = await this.records.unfinished();
    await this.files.sweep(new Set(waiting.map((record) => this.files.fileName(record._id, record.format))));
    if (waiting.length === 0) return;
    const jobs = await this.scheduler.list(processJobName);
    if (!jobs.some((job) => job.nextRunAt !== null && job.lockedAt === null)) await this.scheduler.now<ProcessJobData>(processJobName, {});
  }

  #heldByAnother(record: ImportRecord): boolean {
    const holder = record.worker;
    if (!holder || holder.instance === this.#worker.instance) return false;
    if ((record.lease_until ?? 0) <= this.clock.nowMs()) return false;
    if (holder.host === this.#worker.host && holder.pid !== this.#worker.pid && !processAlive(holder.pid)) return false;
    return true;
  }

  async #wakeUpWhenExpired(record: ImportRecord): Promise<void> {
    const delay = Math.max(1000, (record.lease_until ?? 0) - this.clock.nowMs());
    await this.scheduler.at<ProcessJobData>(new Date(Date.now() + delay), processJobName, { importId: record._id });
  }

  async #process(record: ImportRecord, run: RunProgress): Promise<void> {
    const startedAt = this.clock.nowMs();
    const renewal = setInterval(() => {
      this.#renew(record._id, run).catch((err: unknown) => this.logger.warn({ err, importId: record._id }, 'could not renew the claim on an import'));
    }, leaseMs / 3);
    try {
      await this.#announce(record._id, 'ongoing');
      // Applied already by a worker that died before recording it done: not applied again.
      const outcome = record.committed ?? (await this.#apply(record, startedAt, run));
      if (!outcome) return;
      await this.records.finish(record._id, this.#worker, outcome);
      // Left behind, the file goes at a later start.
      await this.files.remove(record._id, record.format).catch((err: unknown) => this.logger.warn({ err, importId: record._id }, 'could not remove an import file'));
      this.logger.info({ importId: record._id, ...outcome }, `import ${outcome.status}`);
      await this.#announce(record._id, outcome.status);
    } finally {
      clearInterval(renewal);
    }
  }

  /**
   * Reads, checks and applies the import in memory, then commits the graph changes and the outcome (`committed`) in
   * one batch. Returns the outcome once that batch is durable, not yet recorded as the status, or null when another
   * worker took over.
   */
  async #apply(record: ImportRecord, startedAt: number, run: RunProgress): Promise<ImportOutcome | null> {
    const failed = (info: string): ImportOutcome => ({ status: 'failed', exec_time: execTime(this.clock.nowMs() - startedAt), info });
    try {
      const changes = await this.#changes(record);
      if (!(await this.#renew(record._id, run))) {
        this.logger.warn({ importId: record._id }, 'another worker took over this import');
        return null;
      }
      const done: ImportOutcome = { status: 'done', exec_time: execTime(this.clock.nowMs() - startedAt), stats: importStats(changes) };
      await this.entities.commit(changes, [this.records.committing(record._id, this.#worker, done)]);
      return done;
    } catch (err) {
      if (hasCode(err, importFailedCode)) return failed(err.message);
      if (hasCode(err, ErrorCodes.DuplicateKey)) {
        return failed(`an entity this import creates was created by another writer meanwhile (${err.detail}); nothing was applied, submit the import again`);
      }
      this.logger.error({ err, importId: record._id }, 'import failed unexpectedly');
      return failed(`the import could not be processed: ${errorDetail(err)}; nothing was applied`);
    }
  }

  /**
   * The graph changes of an import, applied in memory. Its own call so that the document, its plan and the draft are
   * garbage once the changes are made: the commit of a large import then runs without them in memory.
   */
  async #changes(record: ImportRecord): Promise<GraphChanges> {
    const plan = await this.#plan(record);
    return applyPlan(plan, await this.#draft(plan));
  }

  /** The draft a plan needs. Not an async call: the set of replaced ids it asks for (a million) is not kept through the apply. */
  #draft(plan: ImportPlan): Promise<GraphDraft> {
    const { ids, replaced } = draftRequest(plan);
    return this.entities.draft(ids, replaced);
  }

  /**
   * The checked document of an import. Its own call, ended before the draft is read: a suspended async call keeps
   * the values of its earlier steps, and the body's text and parsed tree (800 MB for a million entities) stayed alive
   * through the draft's reading.
   */
  async #plan(record: ImportRecord): Promise<ImportPlan> {
    return readDocument(decodeBody(await this.files.read(record._id, record.format), record.format, this.files.maxDepth));
  }

  /** Extends the claim (and the job's lock); false when another worker took the import over. */
  async #renew(id: string, run: RunProgress): Promise<boolean> {
    await run.touch();
    return this.records.renew(id, this.#worker, this.clock.nowMs() + leaseMs);
  }

  async #announce(importId: string, status: ImportStatus): Promise<void> {
    try {
      await this.eventBus.emit(importStatusChangedEvent, { importId, status });
    } catch (err) {
      this.logger.error({ err, importId }, 'a listener of import.status-changed failed');
    }
  }
}
