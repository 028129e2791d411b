import { collectionRef, type Doc } from '@vigie/kernel';
import type { Column } from './schemas.js';

export type ExportType = 'alarm' | 'entity';
export type ExportStatus = 'pending' | 'running' | 'done' | 'failed';

/** `export_tasks`: one export, its selection and progress. */
export interface ExportTask extends Doc {
  type: ExportType;
  status: ExportStatus;
  /** The store filter, already checked, as JSON text (its `$` keys are no field names for the store). */
  filter_json: string;
  columns: Column[];
  /** The field separator character. */
  separator: string;
  rows_done: number;
  total: number | null;
  created: number;
  finished: number | null;
  error: string | null;
  author: string;
  /** Once done: how many chunks of `export_chunks` hold the file, and its size in bytes. */
  chunks?: number;
  size?: number;
}

export const exportTaskCollection = collectionRef<ExportTask>('export_tasks');

/**
 * `export_chunks`: the file of an export, in pieces of about `exportChunkChars` characters kept in the store, so that
 * every node sharing the store serves it (`_id` is `<export id>:<seq>`, `seq` from 0).
 */
export interface ExportChunk extends Doc {
  export: string;
  seq: number;
  text: string;
}

export const exportChunkCollection = collectionRef<ExportChunk>('export_chunks');
