import { Worker } from 'node:worker_threads';
import type { SeedProgress } from '../demo';

/**
 * Runs prepareDatabase (migrations, demo data) in a worker thread, telling onProgress how far the seed is; resolves
 * when the thread has closed the database, and exits the process with code 1 if it failed (the thread printed why).
 * From source (tsx) the thread registers tsx's loader first; a built server runs seed-worker.js beside this file.
 */
export async function prepareInWorker(onProgress: (p: SeedProgress) => void): Promise<void> {
  const here = import.meta.url;
  let worker: Worker;
  if (here.endsWith('.ts')) {
    const entry = new URL('./seed-worker.ts', here).href;
    const tsx = import.meta.resolve('tsx/esm/api');
    worker = new Worker(`import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`, { eval: true });
  } else {
    worker = new Worker(new URL('./seed-worker.js', here));
  }
  worker.on('message', (p: SeedProgress) => onProgress(p));
  const code = await new Promise<number>((resolve) => {
    worker.once('error', (err) => {
      process.stderr.write(`IR-HHT Portal cannot start: ${err instanceof Error ? err.message : String(err)}\n`);
      resolve(1);
    });
    worker.once('exit', resolve);
  });
  if (code !== 0) process.exit(1);
}
