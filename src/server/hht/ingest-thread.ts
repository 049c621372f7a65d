import { Worker } from 'node:worker_threads';
import type { SyncResponse } from '../../shared/hht-sync';
import { noteLocalWrite } from '../db/write-generation';
import { BatchConflictError, IngestError, type IngestBatch } from './ingest';
import type { IngestReply } from './ingest-thread-protocol';

/** Stores a batch: in this thread (ingestBatch) or in the sync thread (IngestThread.ingest). */
export type Ingest = (batch: IngestBatch) => Promise<SyncResponse>;

/**
 * Device sync in a worker thread of its own, on PostgreSQL (docs/decisions.md, "Device sync in its own thread"):
 * a batch is a dozen statements one after the other, and on a server busy with officers' reports each answer from the
 * database waited behind the report requests queued on the one event loop (the batch's transaction sat idle in
 * between). The thread has its own pool and event loop; this side only hands the batch over and waits.
 *
 * The report result cache counts this process's writes (write-generation.ts): a batch's answer moves that count here
 * before the device hears it, so no answer computed before the batch is served after it.
 */
export class IngestThread {
  private readonly pending = new Map<number, { resolve: (r: SyncResponse) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  private readonly ready: Promise<void>;
  private exited: Error | undefined;

  private constructor(
    private readonly worker: Worker,
    private readonly fallback: Ingest,
  ) {
    this.ready = new Promise((resolve, reject) => {
      worker.once('message', (m) => (m === 'ready' ? resolve() : reject(new Error(`sync thread: unexpected ${String(m)}`))));
      worker.once('error', reject);
    });
    worker.on('message', (m: IngestReply | 'ready') => {
      if (m !== 'ready') this.settle(m);
    });
    worker.on('error', (err) => this.failAll(err));
    worker.on('exit', (code) => this.failAll(new Error(`the sync thread stopped (exit code ${code})`)));
  }

  /**
   * Starts the thread and waits until its pool is open. From source (tsx) the thread registers tsx's loader first.
   * `fallback` stores batches on this thread if the sync thread ever stops (batches under way then get its error).
   */
  static async start(databaseUrl: string, fallback: Ingest): Promise<IngestThread> {
    const here = import.meta.url;
    const workerData = { databaseUrl };
    let worker: Worker;
    if (here.endsWith('.ts')) {
      const entry = new URL('./ingest-worker.ts', here).href;
      const tsx = import.meta.resolve('tsx/esm/api');
      worker = new Worker(`import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`, { eval: true, workerData });
    } else {
      worker = new Worker(new URL('./ingest-worker.js', here), { workerData });
    }
    const thread = new IngestThread(worker, fallback);
    try {
      await thread.ready;
    } catch (err) {
      await worker.terminate();
      throw err;
    }
    return thread;
  }

  /** Stores a batch in the thread; the same answers and errors as ingestBatch. */
  readonly ingest: Ingest = (batch) => {
    if (this.exited) return this.fallback(batch);
    const id = this.nextId++;
    return new Promise<SyncResponse>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, batch });
    });
  };

  /** Lets batches under way finish, then closes the thread's pool and the thread. */
  async close(): Promise<void> {
    while (this.pending.size > 0 && !this.exited) await new Promise((r) => setTimeout(r, 10));
    if (this.exited) return;
    const gone = new Promise((r) => this.worker.once('exit', r));
    this.worker.postMessage('close');
    await gone;
  }

  /** Stops the thread at once: batches under way get an error, later ones go to the fallback. */
  async terminate(): Promise<void> {
    await this.worker.terminate();
  }

  private settle(m: IngestReply): void {
    const waiter = this.pending.get(m.id);
    if (!waiter) return;
    this.pending.delete(m.id);
    // Counted whatever the outcome (as the drivers count a write that ended): moving it too often only costs hits.
    noteLocalWrite();
    if ('ok' in m) waiter.resolve(m.ok);
    else if ('refused' in m) waiter.reject(new IngestError(m.refused));
    else if ('conflict' in m) waiter.reject(new BatchConflictError(m.conflict));
    else waiter.reject(Object.assign(new Error(m.failed.message), m.failed.code ? { code: m.failed.code } : {}));
  }

  private failAll(err: Error): void {
    this.exited ??= err;
    for (const [id, w] of this.pending) {
      this.pending.delete(id);
      noteLocalWrite();
      w.reject(err);
    }
  }
}
