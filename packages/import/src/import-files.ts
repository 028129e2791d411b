import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { inject, injectable } from 'tsyringe';
import { ErrorCodes, KernelTokens, VigieError } from '@vigie/kernel';
import type { BodyFormat } from './import-document.js';

export function bodyTooLarge(limit: number): VigieError {
  return new VigieError(ErrorCodes.BodyTooLarge, `the import body exceeds ${limit} bytes`);
}

/** Where submitted bodies wait for processing: `<data dir>/imports/import_<id>.<json|form>`. */
@injectable()
export class ImportFiles {
  readonly directory: string;

  constructor(@inject(KernelTokens.DataDir) dataDir: string) {
    this.directory = join(dataDir, 'imports');
  }

  fileName(id: string, format: BodyFormat): string {
    return `import_${id}.${format}`;
  }

  /**
   * Streams a request body to the import's file, refusing it (`BODY_TOO_LARGE`) as soon as it exceeds `limit`
   * bytes. The file appears complete and flushed to disk, or not at all. Returns the number of bytes written.
   */
  async write(id: string, format: BodyFormat, body: Readable, limit: number): Promise<number> {
    await mkdir(this.directory, { recursive: true });
    const path = join(this.directory, this.fileName(id, format));
    const partial = `${path}.part`;
    let bytes = 0;
    const limiter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        done(bytes > limit ? bodyTooLarge(limit) : null, chunk);
      },
    });
    const onRequestError = (err: Error) => limiter.destroy(err);
    const onRequestClose = () => {
      if (!body.readableEnded) limiter.destroy(new Error('the client closed the connection before the end of the body'));
    };
    body.once('error', onRequestError);
    body.once('close', onRequestClose);
    // Not pipeline(body, …): on a refusal it would destroy the request, and the client would never read the 413.
    body.pipe(limiter);
    try {
      await pipeline(limiter, createWriteStream(partial, { flags: 'wx' }));
      await syncPath(partial, 'r+');
      await rename(partial, path);
      await syncPath(this.directory, 'r');
    } catch (err) {
      body.unpipe(limiter);
      await rm(partial, { force: true });
      throw err;
    } finally {
      body.off('error', onRequestError);
      body.off('close', onRequestClose);
    }
    return bytes;
  }

  read(id: string, format: BodyFormat): Promise<string> {
    return readFile(join(this.directory, this.fileName(id, format)), 'utf8');
  }

  remove(id: string, format: BodyFormat): Promise<void> {
    return rm(join(this.directory, this.fileName(id, format)), { force: true });
  }

  /** Removes every file but `keep` (bodies of finished imports, uploads cut off by a crash). */
  async sweep(keep: ReadonlySet<string>): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.directory);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    for (const name of names) if (!keep.has(name)) await rm(join(this.directory, name), { force: true });
  }
}

async function syncPath(path: string, flags: 'r' | 'r+'): Promise<void> {
  const handle = await open(path, flags);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
