import type { SyncResponse } from '../../shared/hht-sync';
import type { FieldError } from './validate';
import type { IngestBatch } from './ingest';

/** What the sync thread is asked (ingest-thread.ts): one batch, answered under the same id. */
export interface IngestRequest {
  id: number;
  batch: IngestBatch;
}

/** How the sync thread answers: the stored batch, or the failure in a form that crosses threads (no class). */
export type IngestReply =
  | { id: number; ok: SyncResponse }
  | { id: number; refused: FieldError[] }
  | { id: number; conflict: string }
  | { id: number; failed: { message: string; code?: string } };
