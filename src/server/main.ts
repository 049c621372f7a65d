import { loadConfig, ConfigError, type Config } from './config';
import { openDb, type Db } from './db';
import { migrate } from './db/migrate';
import { ensureSeeded, fillWindow } from './db/seed';
import { buildApp } from './app';
import { insertDemoUsers } from './auth/demo-users';
import { istDate, systemClock } from './clock';
import { startLiveFeed } from './hht/start';

/** Prints one clear line and exits: bad configuration and unreachable databases never show a stack trace. */
function fail(message: string): never {
  process.stderr.write(`IR-HHT Portal cannot start: ${message}\n`);
  process.exit(1);
}

function describeDbError(err: unknown, config: Config): string {
  const text = err instanceof Error ? err.message : String(err);
  if (config.databaseUrl) {
    const where = config.databaseUrl.replace(/\/\/[^@/]*@/, '//');
    return `cannot connect to DATABASE_URL ${where} (${text || 'connection refused'})`;
  }
  return `cannot open the embedded database in ${config.dataDir} (${text})`;
}

async function main(): Promise<void> {
  const started = Date.now();
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) fail(err.problems.join('; '));
    throw err;
  }

  let db: Db;
  try {
    db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    await migrate(db);
  } catch (err) {
    fail(describeDbError(err, config));
  }

  const log = (line: string): void => {
    process.stdout.write(`${line}\n`);
  };
  // Live data: the demo seed holds what terminals synced by now, and the feed releases the rest as it comes due.
  const live = config.seed === 'demo' && config.feed;
  const seedOpts = () => ({ scale: config.seedScale, today: istDate(systemClock.now()), log, ...(live ? { liveAt: systemClock.now() } : {}) });
  if (config.seed === 'demo') {
    await ensureSeeded(db, seedOpts());
    await insertDemoUsers(db);
    await fillWindow(db, seedOpts());
  }

  const app = await buildApp({ config, db, logger: { level: process.env.LOG_LEVEL ?? 'info' } });

  // The window rolls: at each midnight (IST) generate the runs of the new tomorrow.
  let midnightTimer: NodeJS.Timeout | undefined;
  const scheduleMidnight = (): void => {
    const now = systemClock.now();
    const ist = new Date(now.getTime() + 330 * 60_000);
    const nextIstMidnight = Date.UTC(ist.getUTCFullYear(), ist.getUTCMonth(), ist.getUTCDate() + 1) - 330 * 60_000;
    midnightTimer = setTimeout(() => {
      if (config.seed === 'demo') {
        fillWindow(db, seedOpts()).catch((err: unknown) => app.log.error({ err }, 'rolling window fill failed'));
      }
      scheduleMidnight();
    }, nextIstMidnight - now.getTime() + 1000);
    midnightTimer.unref();
  };
  scheduleMidnight();
  const feed = live ? startLiveFeed(db, systemClock, app.log) : undefined;

  let closing = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} received: finishing in-flight requests`);
    clearTimeout(midnightTimer);
    await feed?.stop();
    await app.close(); // stops accepting, waits for in-flight requests
    await db.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    fail(`cannot listen on ${config.host}:${config.port} (${err instanceof Error ? err.message : String(err)})`);
  }
  log(`IR-HHT Portal ready on http://${config.host}:${config.port}/ in ${Date.now() - started} ms (database: ${db.driver})`);
}

main().catch((err: unknown) => fail(err instanceof Error ? err.message : String(err)));
