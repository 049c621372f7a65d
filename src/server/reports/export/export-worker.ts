/**
 * Worker thread entry: writes one xlsx or PDF export. Rows arrive in batches, asked for one at a time (the main
 * thread answers only while the reply keeps up), and the file goes back in chunks. The export libraries are
 * loaded here, on the first export, never on the main thread.
 */
import { parentPort } from 'node:worker_threads';
import type { Readable } from 'node:stream';
import type { ExportInput } from './types';
import type { FromWorker, ToWorker, WorkerFormat } from './worker-protocol';

const port = parentPort;
if (!port) throw new Error('export-worker runs only as a worker thread');
const post = (m: FromWorker): void => port.postMessage(m);

const queue: (Record<string, unknown>[] | null)[] = [];
let wake: (() => void) | undefined;

async function* batches(): AsyncGenerator<Record<string, unknown>[]> {
  for (;;) {
    if (queue.length === 0) {
      post({ type: 'need' });
      await new Promise<void>((resolve) => (wake = resolve));
    }
    const batch = queue.shift();
    if (batch === null || batch === undefined) return;
    yield batch;
  }
}

async function writer(format: WorkerFormat): Promise<(input: ExportInput) => Readable> {
  return format === 'xlsx' ? (await import('./xlsx')).xlsxStream : (await import('./pdf')).pdfStream;
}

port.on('message', (m: ToWorker) => {
  if (m.type === 'start') {
    writer(m.format)
      .then((write) => {
        const out = write({ columns: m.columns, meta: m.meta, rows: batches() });
        out.on('data', (chunk: Buffer) => post({ type: 'chunk', data: chunk }));
        out.on('end', () => post({ type: 'end' }));
        out.on('error', (err) => post({ type: 'error', message: err.message }));
      })
      .catch((err: unknown) => post({ type: 'error', message: err instanceof Error ? err.message : String(err) }));
    return;
  }
  queue.push(m.type === 'batch' ? m.rows : null);
  const w = wake;
  wake = undefined;
  w?.();
});
