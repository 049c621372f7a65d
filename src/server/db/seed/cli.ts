/**
 * npm run seed -- --scale small|medium|large|tiny [--today YYYY-MM-DD] [--reset]
 * Migrates the configured database (DATABASE_URL or HHT_DATA_DIR) and seeds it; --reset first empties the
 * domain tables and the device audit (never users). Errors end with one line and exit code 1.
 */
import { loadConfig, ConfigError } from '../../config';
import { istDate, systemClock } from '../../clock';
import { openDb, type Db } from '..';
import { migrate } from '../migrate';
import { ensureSeeded, fillWindow, isSeedScale, type SeedScale } from '.';
import { SEED_TABLES } from './loader';

interface Args {
  scale: SeedScale;
  today: string;
  reset: boolean;
}

function parseArgs(argv: string[], defaultScale: SeedScale): Args {
  const args: Args = { scale: defaultScale, today: istDate(systemClock.now()), reset: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--scale') {
      const v = value();
      if (!isSeedScale(v)) throw new Error(`--scale must be tiny, small, medium or large, got "${v}"`);
      args.scale = v;
    } else if (a === '--today') {
      const v = value();
      if (!/^\d{4}-\d{2}-\d{2}$/.test(v) || Number.isNaN(Date.parse(v))) throw new Error(`--today must be YYYY-MM-DD, got "${v}"`);
      args.today = v;
    } else if (a === '--reset') args.reset = true;
    else throw new Error(`unknown argument "${a}" (use --scale, --today, --reset)`);
  }
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
