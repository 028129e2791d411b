import { mkdir, open, readdir, readFile, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { injectable } from 'tsyringe';
import { ErrorCodes, injectRef, kernelRefs, VigieError, errorDetail, type InputLimits } from '@vigie/kernel';
import { FormJsonDepthMeter, JsonDepthMeter, parseByteSize } from '@vigie/kernel-http';
import { importConfig, type ImportConfig } from './config.js';
import type { BodyFormat } from './import-document.js';

/** Code of a submission whose body could not be stored (disk full, permissions). */
export const importNotStoredCode = 'IMPORT_NOT_STORED';

/** Files younger than this may belong to a submission in flight on another node sharing the directory. */
const sweepAfterMs = 60 * 60 * 1000;

/** Where submitted bodies wait for processing: `<data dir>/imports/import_<id>.<json|form>`. */
@injectable()
export class ImportFiles {
  readonly directory: string;
  readonly #maxBytes: number;
  readonly #maxSize: string;
  readonly #maxDepth: number;

  constructor(
    @injectRef(kernelRefs.dataDir) dataDir: string,
    @injectRef(importConfig.ref) config: ImportConfig,
    @injectRef(kernelRefs.inputLimits) limits: InputLimits,
  ) {
    this.directory = join(dataDir, 'imports');
    this.#maxDepth = limits.jsonMaxDepth;
    this.#maxSize = config.max_body_size;
    this.#maxBytes = parseByteSize(config.max_body_size);
  }

  fileName(id: string, format: BodyFormat): string {
    return `import_${id}.${format}`;
  }

  /**
   * Streams a request body to the import's file. Refuses it (`BODY_TOO_LARGE`) when its Content-Length, or the
   * bytes received, exceed `[import] max_body_size`, and (`BODY_INVALID_JSON`) when its JSON nests deeper than
   * `[server] json_max_depth`, measured as it flows (the body is never held in memory); a storage failure is `IMPORT_NOT_STORED`. The file appears
   * complete and flushed to disk, or not at all. Returns the number of bytes written.
   */
  async write(id: string, format: BodyFormat, body: Readable, declaredLength: number | undefined): Promise<number> {
    if (declaredLength !== undefined && declaredLength > this.#maxBytes) throw this.#tooLarge();
    const path = join(this.directory, this.fileName(id, format));
    const partial = `${path}.part`;
    let bytes = 0;
    /** The request's own failure (too large, cut off), as opposed to a storage failure. */
    let refusal: Error | undefined;
    const refuse = (err: Error): Error => (refusal = err);
    const maxBytes = this.#maxBytes;
    const tooLarge = () => this.#tooLarge();
    const depth = format === 'json' ? new JsonDepthMeter(this.#maxDepth) : new FormJsonDepthMeter(this.#maxDepth);
    const limiter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        if (bytes > maxBytes) return done(refuse(tooLarge()));
        try {
          depth.feed(chunk);
        } catch (err) {
          return done(refuse(err as Error));
        }
        done(null, chunk);
      },
    });
    const onRequestError = (err: Error) => limiter.destroy(refuse(err));
    const onRequestClose = () => {
      if (!body.readableEnded) limiter.destroy(refuse(new Error('the client closed the connection before the end of the body')));
    };
    body.once('error', onRequestError);
    body.once('close', onRequestClose);
    let handle: FileHandle | undefined;
    try {
      await mkdir(this.directory, { recursive: true });
      // Opened before any byte flows, so that a refusal cannot race the file's creation with its removal.
      handle = await open(partial, 'wx');
      // Not pipeline(body, …): on a refusal it would destroy the request, and the client would never read the 413.
      body.pipe(limiter);
      // flush: fsync before the stream closes the file.
      await pipeline(limiter, handle.createWriteStream({ flush: true }));
      await rename(partial, path);
      await syncPath(this.directory);
    } catch (err) {
      body.unpipe(limiter);
      // Best effort: the reason to report is the first failure.
      await handle?.close().catch(() => undefined);
      await rm(partial, { force: true }).catch(() => undefined);
      if (err === refusal) throw err;
      throw new VigieError(importNotStoredCode, `Impossible to store the import: ${errorDetail(err)}`, { cause: err });
    } finally {
      body.off('error', onRequestError);
      body.off('close', onRequestClose);
    }
    return bytes;
  }

  /** The bound on JSON nesting the body was stored under, which its inner JSON texts also get. */
  get maxDepth(): number {
    return this.#maxDepth;
  }

  /**
   * The stored body as text. Read as bytes first: hundreds of megabytes held outside the JavaScript heap make V8
   * collect at once what earlier work left (a previous import's gigabyte of garbage), before the parse allocates as
   * much again. Read straight as a string, both stayed in memory together: the parse of a re-import of a million
   * entities reached 3.3 GB resident instead of 2.0 GB.
   */
  async read(id: string, format: BodyFormat): Promise<string> {
    return (await readFile(join(this.directory, this.fileName(id, format)))).toString('utf8');
  }

  remove(id: string, format: BodyFormat): Promise<void> {
    return rm(join(this.directory, this.fileName(id, format)), { force: true });
  }

  /**
   * Removes the files no unfinished import needs (`keep` names those that are) once they are an hour old:
   * bodies of finished imports, uploads cut off by a crash.
   */
  async sweep(keep: ReadonlySet<string>): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.directory);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    for (const name of names) {
      if (keep.has(name)) continue;
      const path = join(this.directory, name);
      if ((await stat(path)).mtimeMs < Date.now() - sweepAfterMs) await rm(path, { force: true });
    }
  }

  #tooLarge(): VigieError {
    return new VigieError(ErrorCodes.BodyTooLarge, `The import body exceeds ${this.#maxSize} ([import] max_body_size)`);
  }
}

/** Makes a rename in the directory durable. */
async function syncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
