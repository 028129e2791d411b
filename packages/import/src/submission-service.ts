import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { inject, injectable } from 'tsyringe';
import { ErrorCodes, KernelTokens, VigieError, errorDetail, parseByteSize, type Clock, type Logger, type Scheduler } from '@vigie/kernel';
import type { ImportConfig } from './config.js';
import type { BodyFormat } from './import-document.js';
import { ImportFiles, bodyTooLarge } from './import-files.js';
import { ImportRepository } from './import-repository.js';
import { processJobName, type ProcessJobData } from './processor.js';
import { asctime } from './time-format.js';

/** Code of a submission whose body could not be stored (disk full, permissions). */
export const importNotStoredCode = 'IMPORT_NOT_STORED';

/** Takes import submissions: the body to a file, a `pending` status record, a job to process the queue. */
@injectable()
export class ImportSubmission {
  readonly #maxBytes: number;

  constructor(
    @inject(ImportFiles) private readonly files: ImportFiles,
    @inject(ImportRepository) private readonly records: ImportRepository,
    @inject(KernelTokens.Scheduler) private readonly scheduler: Scheduler,
    @inject(KernelTokens.Clock) private readonly clock: Clock,
    @inject(KernelTokens.Logger) private readonly logger: Logger,
    @inject(KernelTokens.Config) config: ImportConfig,
  ) {
    this.#maxBytes = parseByteSize(config.max_body_size);
  }

  /** Stores the body (`declaredLength`: its Content-Length, if any) and queues it; returns the import id. */
  async submit(format: BodyFormat, body: Readable, declaredLength: number | undefined): Promise<string> {
    if (declaredLength !== undefined && declaredLength > this.#maxBytes) throw bodyTooLarge(this.#maxBytes);
    const id = randomUUID();
    let bytes: number;
    try {
      bytes = await this.files.write(id, format, body, this.#maxBytes);
    } catch (err) {
      if (typeof (err as { code?: unknown }).code === 'string' && (err as NodeJS.ErrnoException).syscall !== undefined) {
        throw new VigieError(importNotStoredCode, `Impossible to store the import: ${errorDetail(err)}`, { cause: err });
      }
      throw err;
    }
    if (bytes === 0) {
      await this.files.remove(id, format);
      throw new VigieError(ErrorCodes.BodyEmpty, 'the request body is empty');
    }
    const now = this.clock.now();
    try {
      await this.records.insert({ _id: id, creation: asctime(now), status: 'pending', format, submitted_at: now.getTime(), worker: null, lease_until: null });
    } catch (err) {
      await this.files.remove(id, format);
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
