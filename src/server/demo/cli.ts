/**
 * npm run seed -- --scale small|medium|large|tiny [--today YYYY-MM-DD] [--reset]
 * npm run seed -- --scale national [--days N] [--today YYYY-MM-DD] [--reset]: N national days ending today,
 * written with COPY into PostgreSQL (DATABASE_URL), with a progress bar on stderr (demo/national.ts).
 * Migrates the configured database (DATABASE_URL or HHT_DATA_DIR) and seeds it; --reset first empties the
 * domain tables and the device audit (never users). Errors end with one line and exit code 1.
 */
import { loadConfig, ConfigError } from '../config';
import { istDate, systemClock } from '../clock';
import { openDb, type Db } from '../db';
import { migrate } from '../db/migrate';
import { ensureSeeded, fillWindow, isSeedScale, type SeedScale } from '.';
import { SEED_TABLES } from './loader';
import { seedNational } from './national';

interface Args {
  scale: SeedScale;
  today: string;
  reset: boolean;
  days: number | undefined;
}

function parseArgs(argv: string[], defaultScale: SeedScale): Args {
  const args: Args = { scale: defaultScale, today: istDate(systemClock.now()), reset: false, days: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--scale') {
      const v = value();
      if (!isSeedScale(v)) throw new Error(`--scale must be tiny, small, medium, large or national, got "${v}"`);
      args.scale = v;
    } else if (a === '--today') {
      const v = value();
      if (!/^\d{4}-\d{2}-\d{2}$/.test(v) || Number.isNaN(Date.parse(v))) throw new Error(`--today must be YYYY-MM-DD, got "${v}"`);
      args.today = v;
    } else if (a === '--days') {
      const v = value();
      if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 400) throw new Error(`--days must be a whole number from 1 to 400, got "${v}"`);
      args.days = Number(v);
    } else if (a === '--reset') args.reset = true;
    else throw new Error(`unknown argument "${a}" (use --scale, --today, --days, --reset)`);
  }
  if (args.days !== undefined && args.scale !== 'national') throw new Error('--days goes with --scale national');
  return args;
}

async function main(): Promise<void> {
  const config = loadConfig();
  const args = parseArgs(process.argv.slice(2), config.seedScale);
  let db: Db;
  try {
    db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  } catch (err) {
    const where = config.databaseUrl ? 'DATABASE_URL' : config.dataDir;
    throw new Error(`cannot open the database (${where}): ${err instanceof Error ? err.message : String(err)}`);
  }
  try {
    await migrate(db);
    const log = (line: string): void => void process.stdout.write(`${line}\n`);
    if (args.reset) {
      // device_audit references devices: its rows describe devices the reset removes, so they go too.
      await db.exec(`TRUNCATE ${[...SEED_TABLES, 'seed_state', 'device_audit'].join(', ')}`);
      log('seed: domain tables and the device audit emptied (users kept)');
    }
    if (args.scale === 'national') {
      if (!config.databaseUrl) throw new Error('the national scale loads with COPY into PostgreSQL: set DATABASE_URL');
      const figures = await seedNational(db, {
        databaseUrl: config.databaseUrl, days: args.days ?? 7, today: args.today, log, progress: true,
      });
      log(`seed: national, ${figures.length} days loaded`);
      return;
    }
    const opts = { scale: args.scale, today: args.today, log };
    if (!(await ensureSeeded(db, opts))) {
      const added = await fillWindow(db, opts);
      log(`seed: database already seeded; ${added} runs added to the window (use --reset to seed again)`);
    }
  } finally {
    await db.close();
  }
}

main().catch((err: unknown) => {
  const message = err instanceof ConfigError ? err.problems.join('; ') : err instanceof Error ? err.message : String(err);
  process.stderr.write(`seed failed: ${message}\n`);
  process.exit(1);
});
