import type { Config } from '../config';
import { openDb, type Db } from '../db';
import { migrate } from '../db/migrate';
import { ensureSeeded, fillWindow, type SeedProgress } from '../demo';
import { insertDemoUsers } from '../auth/demo-users';
import { istDate, systemClock } from '../clock';
import { fail, logLine, type LogLine } from './log-line';

export { fail, logLine, type LogLine } from './log-line';

function describeDbError(err: unknown, config: Config): string {
  const text = err instanceof Error ? err.message : String(err);
  if (config.databaseUrl) {
    const where = config.databaseUrl.replace(/\/\/[^@/]*@/, '//');
    return `cannot connect to DATABASE_URL ${where} (${text || 'connection refused'})`;
  }
  return `cannot open the embedded database in ${config.dataDir} (${text})`;
}

/** Opens the configured database, or exits with one line saying why not. */
export async function openDbOrFail(config: Config): Promise<Db> {
  try {
    return await openDb({
      databaseUrl: config.databaseUrl, dataDir: config.dataDir,
      replicaUrls: config.databaseReplicaUrls, replicaMaxLagMs: config.replicaMaxLagMs, log: logLine,
      reportWorkMem: config.reportWorkMem,
    });
  } catch (err) {
    fail(describeDbError(err, config));
  }
}

/** Live data (HHT_FEED on, demo seed): the seed holds what terminals synced by now; the feed releases the rest. */
export const isLive = (config: Config): boolean => config.seed === 'demo' && config.feed;

export const seedOptions = (config: Config, log: LogLine, progress?: (p: SeedProgress) => void) => ({
  scale: config.seedScale,
  today: istDate(systemClock.now()),
  log,
  ...(isLive(config) ? { liveAt: systemClock.now() } : {}),
  ...(progress ? { progress } : {}),
});

/**
 * Migrations and the demo data set: done once, by one process, before the app answers (at a start, in a worker
 * thread: seed-in-worker.ts); onProgress hears how far the seed is.
 */
export async function prepareDatabase(db: Db, config: Config, log: LogLine, onProgress?: (p: SeedProgress) => void): Promise<void> {
  try {
    await migrate(db);
  } catch (err) {
    fail(describeDbError(err, config));
  }
  if (config.seed === 'demo') {
    await ensureSeeded(db, seedOptions(config, log, onProgress));
    await insertDemoUsers(db);
    await fillWindow(db, seedOptions(config, log, onProgress));
  }
}
