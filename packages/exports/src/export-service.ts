import { once } from 'node:events';
import { randomUUID } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { stringify } from 'csv-stringify';
import { injectable } from 'tsyringe';
import {
  injectRef,
  kernelRefs,
  type Clock,
  type Filter,
  type Scheduler,
  type FeatureStore,
  type Collection,
} from '@vigie/kernel';
import { durationSeconds } from '@vigie/input';
import { parseSafeFilter } from '@vigie/filter-safety';
import { alarmReaderRef, alarmSearchRef, type AlarmReader, type AlarmSearch } from '@vigie/alarms';
import { entityReaderRef, entityRepositoryRef, type EntityReader, type EntityRepository } from '@vigie/context-graph';
import { exportsConfig, type ExportsConfig } from './config.js';
import { exportChunkCollection, exportTaskCollection, type ExportChunk, type ExportTask, type ExportType } from './export-task.js';
import { separators, type AlarmExportBody, type Column, type EntityExportBody } from './schemas.js';

export const exportJobName = 'exports.run';
/** Documents read from the store at once: what bounds the job's memory, whatever the export's size. */
export const exportPageSize = 1000;
/** Characters of CSV text per stored chunk of a file (about 1 MiB or less in UTF-8 for ASCII): far below every store's document limit. */
export const exportChunkChars = 512 * 1024;

const chunkId = (exportId: string, seq: number) => `${exportId}:${seq}`;

/**
 * Where the job writes the CSV text: into chunks of `export_chunks`, each stored before more text is taken (the CSV
 * writer waits meanwhile), so memory holds one chunk whatever the file's size.
 */
class ChunkWriter extends Writable {
  chunks = 0;
  size = 0;
  #pending: string[] = [];
  #pendingChars = 0;

  constructor(
    private readonly exportId: string,
    private readonly store: Collection<ExportChunk>,
  ) {
    super({ decodeStrings: false, defaultEncoding: 'utf8' });
  }

  /** Keeps the bytes of a character split between two pieces until its end comes. */
  readonly #decoder = new StringDecoder('utf8');

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    const text = typeof chunk === 'string' ? chunk : this.#decoder.write(chunk);
    this.#pending.push(text);
    this.#pendingChars += text.length;
    this.size += Buffer.byteLength(text, 'utf8');
    if (this.#pendingChars < exportChunkChars) return done();
    this.#store().then(() => done(), done);
  }

  override _final(done: (error?: Error | null) => void): void {
    const rest = this.#decoder.end();
    if (rest) {
      this.#pending.push(rest);
      this.#pendingChars += rest.length;
      this.size += Buffer.byteLength(rest, 'utf8');
    }
    this.#store().then(() => done(), done);
  }

  async #store(): Promise<void> {
    if (this.#pendingChars === 0) return;
    const text = this.#pending.join('');
    this.#pending = [];
    this.#pendingChars = 0;
    const seq = this.chunks;
    await this.store.insertOne({ _id: chunkId(this.exportId, seq), export: this.exportId, seq, text });
    this.chunks += 1;
  }
}

/** What the status route shows of an export. */
export interface ExportStatusOutput {
  _id: string;
  type: ExportType;
  status: ExportTask['status'];
  rows_done: number;
  total: number | null;
  created: number;
  finished: number | null;
  error: string | null;
}

function statusOf(task: ExportTask): ExportStatusOutput {
  const { _id, type, status, rows_done, total, created, finished, error } = task;
  return { _id, type, status, rows_done, total, created, finished, error };
}

function columnsOf(columns: readonly (string | { name: string; label?: string } | undefined)[]): Column[] {
  return columns.flatMap((column) => (column === undefined ? [] : [column])).map((column) => (typeof column === 'string' ? { name: column, label: column } : { name: column.name, label: column.label ?? column.name }));
}

const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function separatorOf(name: string | undefined): string {
  return separators[(name ?? 'comma') as keyof typeof separators];
}

/** A cell: the value at a dotted path; objects and lists as their JSON text, absent values empty. */
function cell(doc: Record<string, unknown>, path: string): string | number | boolean {
  let node: unknown = doc;
  for (const part of path.split('.')) {
    if (typeof node !== 'object' || node === null) return '';
    node = Object.hasOwn(node, part) ? (node as Record<string, unknown>)[part] : undefined;
  }
  if (node === undefined || node === null) return '';
  if (typeof node === 'string' || typeof node === 'number' || typeof node === 'boolean') return node;
  return JSON.stringify(node);
}

/**
 * Alarm and entity exports: a durable job per export reads the ids of the selection, then the documents page by page,
 * and streams CSV rows into chunks kept in the store (`export_chunks`), so memory stays bounded whatever the count and
 * every node sharing the store serves the file.
 */
@injectable()
export class ExportService {
  readonly #tasks: Collection<ExportTask>;
  readonly #chunks: Collection<ExportChunk>;
  readonly #retentionSec: number;

  constructor(
    @injectRef(kernelRefs.store) store: FeatureStore,
    @injectRef(kernelRefs.scheduler) private readonly scheduler: Scheduler,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
    @injectRef(alarmReaderRef) private readonly alarms: AlarmReader,
    @injectRef(alarmSearchRef) private readonly alarmSearch: AlarmSearch,
    @injectRef(entityRepositoryRef) private readonly entities: EntityRepository,
    @injectRef(entityReaderRef) private readonly entityReader: EntityReader,
    @injectRef(exportsConfig.ref) config: ExportsConfig,
  ) {
    this.#tasks = store.collection(exportTaskCollection);
    this.#chunks = store.collection(exportChunkCollection);
    this.#retentionSec = durationSeconds(config.retention) ?? 0;
  }

  /** Deletes the exports created longer than `[exports] retention` ago, their files first. */
  async sweep(): Promise<void> {
    if (this.#retentionSec === 0) return;
    const old = await this.#tasks.find({ created: { $lt: this.clock.nowSec() - this.#retentionSec } }, { projection: { _id: 1 } });
    for (const { _id } of old) {
      await this.#chunks.deleteMany({ export: _id });
      await this.#tasks.deleteOne({ _id });
    }
  }

  /** The file of a finished export, read one stored chunk at a time (the chunks of an unfinished one are not read). */
  file(task: ExportTask): Readable {
    const chunks = this.#chunks;
    const count = task.chunks ?? 0;
    return Readable.from(
      (async function* () {
        for (let seq = 0; seq < count; seq++) {
          const chunk = await chunks.findOne({ _id: chunkId(task._id, seq) });
          // Swept while it was being read: the answer ends short, which the client sees against its length.
          if (!chunk) return;
          yield Buffer.from(chunk.text, 'utf8');
        }
      })(),
      { objectMode: false },
    );
  }

  async startAlarmExport(body: AlarmExportBody, author: string): Promise<ExportStatusOutput> {
    const { columns, filter, separator, ...selection } = body;
    const text = filter === undefined || typeof filter === 'string' ? filter : JSON.stringify(filter);
    // A selection of neither open nor resolved alarms selects nothing. The entities whose infos hold the search are
    // those of the start.
    const storeFilter =
      (await this.alarmSearch.selectionFilter({ ...selection, opened: selection.opened ?? true, resolved: selection.resolved ?? false, filter: text })) ?? { _id: { $in: [] } };
    return this.#start('alarm', storeFilter, columnsOf(columns), separatorOf(separator), author);
  }

  startEntityExport(body: EntityExportBody, author: string): Promise<ExportStatusOutput> {
    return this.#start('entity', parseSafeFilter(body.filter) ?? {}, columnsOf(body.columns), separatorOf(body.separator), author);
  }

  async status(type: ExportType, id: string): Promise<ExportStatusOutput | null> {
    const task = await this.#tasks.findOne({ _id: id, type });
    return task ? statusOf(task) : null;
  }

  async task(type: ExportType, id: string): Promise<ExportTask | null> {
    return this.#tasks.findOne({ _id: id, type });
  }

  async #start(type: ExportType, filter: Filter, columns: Column[], separator: string, author: string): Promise<ExportStatusOutput> {
    await this.sweep();
    const task: ExportTask = {
      _id: randomUUID(),
      type,
      status: 'pending',
      filter_json: JSON.stringify(filter),
      columns,
      separator,
      rows_done: 0,
      total: null,
      created: this.clock.nowSec(),
      finished: null,
      error: null,
      author,
    };
    await this.#tasks.insertOne(task);
    await this.scheduler.now(exportJobName, { exportId: task._id });
    return statusOf(task);
  }

  /** The job: writes the export's file, recording progress after each page; a failure is recorded on the export. */
  async run(id: string, touch: () => Promise<void>): Promise<void> {
    const task = await this.#tasks.findOne({ _id: id });
    if (!task || task.status === 'done' || task.status === 'failed') return;
    try {
      await this.#write(task, touch);
    } catch (err) {
      await this.#chunks.deleteMany({ export: id });
      await this.#tasks.updateOne({ _id: id }, { $set: { status: 'failed', error: (err as Error).message, finished: this.clock.nowSec() } });
    }
  }

  async #write(task: ExportTask, touch: () => Promise<void>): Promise<void> {
    const filter = JSON.parse(task.filter_json) as Filter;
    const total = task.type === 'alarm' ? await this.alarms.count(filter) : await this.entities.count(filter);
    await this.#tasks.updateOne({ _id: task._id }, { $set: { status: 'running', total, rows_done: 0 } });
    // A node that died mid-export left chunks: the file is written again from the start.
    await this.#chunks.deleteMany({ export: task._id });
    const output = new ChunkWriter(task._id, this.#chunks);
    // RFC 4180 (CRLF, quotes doubled, fields quoted when needed), UTF-8; formula-looking cells get a leading '.
    const csv = stringify({ header: true, columns: task.columns.map((c) => ({ key: c.name, header: c.label })), delimiter: task.separator, record_delimiter: 'windows', escape_formulas: true });
    csv.pipe(output);
    // The ids of the selection first (about 60 bytes each), then the documents a page of ids at a time: each page is a
    // lookup by id in any store, where paging by `_id` order would sort the remaining selection again for every page
    // in the embedded store.
    const ids = await this.#ids(task.type, filter);
    let rows = 0;
    for (let from = 0; from < ids.length; from += exportPageSize) {
      const page = await this.#page(task.type, filter, ids.slice(from, from + exportPageSize));
      for (const doc of page) {
        const row: Record<string, string | number | boolean> = {};
        for (const column of task.columns) row[column.name] = cell(doc, column.name);
        // Waits for the file when the CSV writer's buffer is full: the pages never pile up in memory.
        if (!csv.write(row)) await once(csv, 'drain');
      }
      rows += page.length;
      await this.#tasks.updateOne({ _id: task._id }, { $set: { rows_done: rows } });
      await touch();
    }
    csv.end();
    await once(output, 'finish');
    await this.#tasks.updateOne(
      { _id: task._id },
      { $set: { status: 'done', rows_done: rows, finished: this.clock.nowSec(), chunks: output.chunks, size: output.size } },
    );
  }

  /** The ids of the selection in `_id` order (the file's order). */
  async #ids(type: ExportType, filter: Filter): Promise<string[]> {
    const ids = type === 'entity' ? await this.entityReader.ids(filter) : (await this.alarms.find(filter, { fields: { _id: 1 } })).map((alarm) => alarm._id);
    return ids.sort(byCodeUnits);
  }

  /** The documents of `ids` that still match the selection (one may have changed since the ids were read). */
  async #page(type: ExportType, filter: Filter, ids: string[]): Promise<Record<string, unknown>[]> {
    const byIds: Filter = Object.keys(filter).length === 0 ? { _id: { $in: ids } } : { _id: { $in: ids }, $and: [filter] };
    const docs: Record<string, unknown>[] =
      type === 'alarm' ? ((await this.alarms.find(byIds, { fields: { 'v.steps': 0 } })) as unknown as Record<string, unknown>[]) : await this.entityReader.find(byIds);
    // A store answers `$in` in its own order.
    return docs.sort((a, b) => byCodeUnits(a['_id'] as string, b['_id'] as string));
  }


}
