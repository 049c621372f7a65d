/**
 * Worker thread entry: migrates the configured database and prepares the demo data (prepareDatabase), posting the
 * seed's progress, then closes the database. The seed generates rows and, on PGlite, runs the database on the thread
 * that calls it: here, the main thread's event loop stays free to answer meanwhile (early-server.ts). A failure
 * prints its one line (fail) and ends the thread with code 1.
 */
import { parentPort } from 'node:worker_threads';
import { loadConfig } from '../config';
import { logLine, openDbOrFail, prepareDatabase } from './startup';
import type { SeedProgress } from '../demo';

const port = parentPort;
if (!port) throw new Error('seed-worker runs only as a worker thread');

const config = loadConfig(); // a worker thread has the main thread's environment
const db = await openDbOrFail(config);
try {
  await prepareDatabase(db, config, logLine, (p: SeedProgress) => port.postMessage(p));
} finally {
  await db.close();
}
