import { parentPort, workerData } from 'node:worker_threads';
import { openPg } from '../db/pg-driver';
import { BatchConflictError, ingestBatch, IngestError } from './ingest';
import type { IngestReply, IngestRequest } from './ingest-thread-protocol';

/**
 * The sync thread's body (started by ingest-thread.ts): its own PostgreSQL pool, and every batch it is sent stored by
 * the one ingest path. Its event loop waits on nothing but the database, so officers' report requests on the main
 * thread do not stand between a batch's statements.
 */
const port = parentPort;
if (!port) throw new Error('ingest-worker runs as a worker thread');
const { databaseUrl } = workerData as { databaseUrl: string };
const db = await openPg(databaseUrl, { applicationName: 'hht-sync' });

port.on('message', (m: IngestRequest | 'close') => {
  if (m === 'close') {
    void db.close().finally(() => port.close());
    return;
  }
  void ingestBatch(db, m.batch).then(
    (ok) => port.postMessage({ id: m.id, ok } satisfies IngestReply),
    (err: unknown) => port.postMessage(replyFor(m.id, err)),
  );
});
port.postMessage('ready');

function replyFor(id: number, err: unknown): IngestReply {
  if (err instanceof IngestError) return { id, refused: err.fields };
  if (err instanceof BatchConflictError) return { id, conflict: err.batchId };
  const code = (err as { code?: unknown }).code;
  return { id, failed: { message: err instanceof Error ? err.message : String(err), ...(typeof code === 'string' ? { code } : {}) } };
}
