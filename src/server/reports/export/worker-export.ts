import { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import type { ExportInput } from './types';
import type { FromWorker, ToWorker, WorkerFormat } from './worker-protocol';

let live = 0;
/** Export worker threads alive now (tests check that a cancelled download leaves none behind). */
export function liveExportWorkers(): number {
  return live;
}

/**
 * One worker thread per export. From source (tsx, vitest) the thread starts without tsx's loader, so it registers
 * it and then loads the TypeScript entry; a built server runs export-worker.js, which the build emits as its own
 * entry point beside the bundle that holds this code (dist/server/export-worker.js).
 */
function spawn(): Worker {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    const entry = new URL('./export-worker.ts', here).href;
    const tsx = import.meta.resolve('tsx/esm/api');
    return new Worker(`import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`, { eval: true });
  }
  return new Worker(new URL('./export-worker.js', here));
}

/**
 * The file written in a worker thread, as a stream. Backpressure end to end: a batch goes to the worker only when
 * it asks and the stream's reader has taken what came before (push() returned true or _read was called again).
 * Destroying the stream (the client went away) stops the worker and closes the rows' cursor.
 */
export function writeInWorker(format: WorkerFormat, input: ExportInput): Readable {
  const rows = input.rows[Symbol.asyncIterator]();
  const worker = spawn();
  live += 1;
  let finished = false;
  let readerWaiting = true;
  let workerWaiting = false;
  const send = (m: ToWorker): void => worker.postMessage(m);

  const feed = (): void => {
    workerWaiting = false;
    rows.next().then(
      (r) => {
        if (out.destroyed) return;
        send(r.done ? { type: 'end' } : { type: 'batch', rows: r.value });
      },
      (err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))),
    );
  };
  const stop = (): void => {
    void worker.terminate();
    void rows.return?.(undefined);
  };

  const out = new Readable({
    read() {
      readerWaiting = true;
      if (workerWaiting) feed();
    },
    destroy(err, callback) {
      stop();
      callback(err);
    },
  });

  worker.on('message', (m: FromWorker) => {
    if (out.destroyed) return;
    switch (m.type) {
      case 'need':
        workerWaiting = true;
        if (readerWaiting) feed();
        break;
      case 'chunk':
        if (!out.push(Buffer.from(m.data.buffer, m.data.byteOffset, m.data.byteLength))) readerWaiting = false;
        break;
      case 'end':
        finished = true;
        out.push(null);
        void worker.terminate();
        break;
      case 'error':
        out.destroy(new Error(`${format} export failed: ${m.message}`));
        break;
    }
  });
  worker.on('error', (err) => out.destroy(err));
  worker.on('exit', () => {
    live -= 1;
    if (!finished && !out.destroyed) out.destroy(new Error(`${format} export worker stopped`));
  });
  send({ type: 'start', format, columns: input.columns, meta: input.meta });
  return out;
}
