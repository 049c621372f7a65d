import type { ColumnDef } from '../../../shared/report-definition';
import type { ExportMeta } from './types';

/** Formats written in a worker thread: their writers are CPU-heavy and would hold up every other request. */
export type WorkerFormat = 'xlsx' | 'pdf';

/** Main thread to worker: one start, then batches as the worker asks for them, then end. */
export type ToWorker =
  | { type: 'start'; format: WorkerFormat; columns: ColumnDef[]; meta: ExportMeta }
  | { type: 'batch'; rows: Record<string, unknown>[] }
  | { type: 'end' };

/** Worker to main thread: 'need' asks for the next batch; output comes back in chunks. */
export type FromWorker =
  | { type: 'need' }
  | { type: 'chunk'; data: Uint8Array }
  | { type: 'end' }
  | { type: 'error'; message: string };
