import cluster from 'node:cluster';
import { loadConfig, ConfigError, type Config } from './config';
import { DataDirInUseError, lockDataDir } from './process/data-dir-lock';
import { fail, logLine } from './process/log-line';
import { listenEarly, type EarlyServer } from './process/early-server';

// The app, the database drivers and the seed are imported once the port answers: loading them takes seconds on a
// busy machine, and a fresh start should not look dead meanwhile.
const loadRest = async () => {
  const [http, startup, supervisor, seed] = await Promise.all([
    import('./process/http-process'), import('./process/startup'), import('./process/supervisor'), import('./process/seed-in-worker'),
  ]);
  return { ...http, ...startup, ...supervisor, ...seed };
};

/**
 * Process model (docs/decisions.md, "All cores"):
 * - the port answers within a second of start (process/early-server.ts), saying how far migrations and seed are;
 * - one process (HHT_WORKERS=1, or the embedded database, which one process owns): migrate, seed, serve;
 * - HHT_WORKERS=N on PostgreSQL: the primary migrates and seeds, then forks N workers sharing the port.
 * Background jobs (midnight window roll; a data feed belongs there too) run in ONE process: the single one, or
 * worker #1 — see startBackgroundJobs.
 */
async function main(): Promise<void> {
  const started = Date.now();
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) fail(err.problems.join('; '));
    throw err;
  }

  if (cluster.isWorker) {
    const { openDbOrFail, runHttpProcess, WORKER_INDEX_ENV } = await loadRest();
    const index = Number(process.env[WORKER_INDEX_ENV] ?? '1');
    const db = await openDbOrFail(config);
    await runHttpProcess({ config, db, index });
    logLine(`IR-HHT Portal worker ${index} (pid ${process.pid}) listening`);
    return;
  }

  let workers = config.workers;
  if (!config.databaseUrl) {
    try {
      lockDataDir(config.dataDir);
    } catch (err) {
      if (err instanceof DataDirInUseError) fail(err.message);
      throw err;
    }
    if (workers > 1) {
      logLine(`IR-HHT Portal runs 1 server process, not ${workers}: the embedded database (PGlite) can be opened by one process only; set DATABASE_URL to use HHT_WORKERS`);
      workers = 1;
    }
  }

  // The port answers at once: pages say how far the database and the demo data are (process/early-server.ts).
  let early: EarlyServer;
  try {
    early = await listenEarly(config);
  } catch (err) {
    fail(`cannot listen on ${config.host}:${config.port} (${err instanceof Error ? err.message : String(err)})`);
  }
  logLine(`IR-HHT Portal listening on http://${config.host}:${config.port}/ in ${Date.now() - started} ms: preparing the database`);
  const { openDbOrFail, prepareInWorker, runHttpProcess, startMetricsOrFail, superviseWorkers } = await loadRest();
  // Migrations and the demo data in a worker thread: generating rows (and PGlite itself) would hold this thread,
  // and the early server could not answer.
  await prepareInWorker((p) => early.onSeedProgress(p));
  early.state.phase = 'starting';
  const db = await openDbOrFail(config);

  if (workers === 1) {
    await runHttpProcess({ config, db, index: 1, early });
  } else {
    await early.close(); // the workers listen on the port themselves
    await db.close(); // the workers open their own pools
    try {
      await superviseWorkers(workers).ready;
    } catch {
      process.exit(1); // the worker printed its one line
    }
    // The workers' figures served together (summed) by the primary.
    if (config.ops.metricsPort !== undefined) await startMetricsOrFail(config.ops.metricsPort, config.host, true);
  }
  const how = workers === 1 ? '' : `, ${workers} worker processes`;
  logLine(`IR-HHT Portal ready on http://${config.host}:${config.port}/ in ${Date.now() - started} ms (database: ${config.databaseUrl ? 'pg' : 'pglite'}${how})`);
}

main().catch((err: unknown) => fail(err instanceof Error ? err.message : String(err)));
