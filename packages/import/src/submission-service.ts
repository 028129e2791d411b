import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { inject, injectable } from 'tsyringe';
import { ErrorCodes, injectRef, kernelRefs, VigieError, type Clock, type Logger, type Scheduler } from '@vigie/kernel';
import type { BodyFormat } from './import-document.js';
import { ImportFiles } from './import-files.js';
import { ImportRepository } from './import-repository.js';
import { processJobName, type ProcessJobData } from './processor.js';
import { asctime } from './time-format.js';

/** Takes import submissions: the body to a file, a `pending` status record, a job to process the queue. */
@injectable()
export class ImportSubmission {
  constructor(
    @inject(ImportFiles) private readonly files: ImportFiles,
    @inject(ImportRepository) private readonly records: ImportRepository,
    @injectRef(kernelRefs.scheduler) private readonly scheduler: Scheduler,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
    @injectRef(kernelRefs.logger) private readonly logger: Logger,
  ) {}

  /** Stores the body (`declaredLength`: its Content-Length, if any) and queues it; returns the import id. */
  async submit(format: BodyFormat, body: Readable, declaredLength: number | undefined): Promise<string> {
    const id = randomUUID();
    if ((await this.files.write(id, format, body, declaredLength)) === 0) {
      await this.files.remove(id, format);
      throw new VigieError(ErrorCodes.BodyEmpty, 'the request body is empty');
    }
    try {
      await this.records.insert({ _id: id, creation: asctime(this.clock.now()), status: 'pending', format, worker: null, lease_until: null });
    } catch (err) {
      await this.files.remove(id, format).catch(() => undefined);
      throw err;
    }
    try {
      await this.scheduler.now<ProcessJobData>(processJobName, { importId: id });
    } catch (err) {
      // The import is recorded: the next job (another submission, or the next start) processes it.
      this.logger.warn({ err, importId: id }, 'could not queue the processing of an import');
    }
    return id;
  }
}
