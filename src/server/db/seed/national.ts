import pg from 'pg';
import type { Db } from '../types';
import { ensureRunPartitions } from '../partitions';
import { buildReference, type Reference } from './reference';
import { loadReference, refreshDeviceSync } from './loader';
import { addDays, dayIndex, emptyRunRows, generateRun, RUN_TABLES, runsOn, type RunRows } from './runs';
import { copyRows } from './copy-rows';
import { Progress } from './progress';

/**
 * `npm run seed -- --scale national --days N`: the national daily volume (about 3,000 train runs and 2 M
 * passengers a day) for N days ending today, written with COPY FROM STDIN into PostgreSQL. Each day is one
 * transaction on one connection (the day is there completely or not at all), in chunks of runs so memory
 * stays bounded; the per-run generator is the seed's own (generateRun).
 */
export interface NationalOptions {
  /** PostgreSQL only: COPY needs a real server. */
  databaseUrl: string;
  days: number;
  /** 'YYYY-MM-DD' (IST): the last day loaded; every day is charted (complete). */
  today: string;
  log: (line: string) => void;
  /** A progress bar on stderr (rows, rate, ETA). */
  progress: boolean;
  /** Only trains whose catalogue position is below this (a trial load in seconds; tests). Default: all. */
  trainLimit?: number;
}

export interface DayFigures {
  date: string;
  runs: number;
  passengers: number;
  rows: number;
  seconds: number;
  bytes: number;
}

/** Runs generated and copied together: about 60,000 passengers, a few hundred MB of objects at most. */
const RUNS_PER_CHUNK = 100;

/** Tables whose pnr column holds a PNR of the run (remapped to national PNRs, see nationalPnr). */
const PNR_TABLES = ['pnrs', 'dropped_etickets', 'passengers', 'reallocations', 'efts', 'tdrs'] as const;

/**
 * The generator's PNR packs (day, train slot < 100, sequence) into 9 digits, enough for the catalogue's trains
 * but not for 3,000: national PNRs use all 10 digits, (day mod 1,200, train slot < 4,000, sequence < 2,000)
 * under a bijective affine scramble, so they stay unique over 1,200 days.
 */
export function nationalPnr(day: number, trainIdx: number, seq: number): string {
  if (trainIdx >= 4000 || seq >= 2000) throw new Error(`national PNR out of range (train slot ${trainIdx}, sequence ${seq})`);
  const n = (BigInt(day % 1200) * 4000n + BigInt(trainIdx)) * 2000n + BigInt(seq);
  return ((n * 7_654_321n + 123_456_789n) % 10_000_000_000n).toString().padStart(10, '0');
}

function remapPnrs(run: RunRows, day: number, trainIdx: number): void {
  const map = new Map<unknown, string>();
  const next = (old: unknown): string => {
    let pnr = map.get(old);
    if (pnr === undefined) {
      pnr = nationalPnr(day, trainIdx, map.size + 1);
      map.set(old, pnr);
    }
    return pnr;
  };
  for (const table of PNR_TABLES) for (const r of run[table]) if (r.pnr !== null && r.pnr !== undefined) r.pnr = next(r.pnr);
}

/** The days to load: `days` days ending at `today`. */
export function nationalDays(today: string, days: number): string[] {
  return Array.from({ length: days }, (_, i) => addDays(today, i - days + 1));
}

export async function seedNational(db: Db, opts: NationalOptions): Promise<DayFigures[]> {
  if (db.driver !== 'pg') throw new Error('the national scale loads with COPY into PostgreSQL: set DATABASE_URL');
  if (!Number.isInteger(opts.days) || opts.days < 1 || opts.days > 400) throw new Error(`--days must be 1 to 400, got ${opts.days}`);
  const ref = buildReference('national');
  const state = await db.query<{ scale: string }>('SELECT scale FROM seed_state WHERE id = 1');
  const scale = state.rows[0]?.scale;
  if (scale !== undefined && scale !== 'national') {
    throw new Error(`the database holds the ${scale} seed; add --reset to replace it with the national one`);
  }
  if (scale === undefined) {
    await db.transaction(async (tx) => {
      await tx.query(`INSERT INTO seed_state (id, scale, seeded_at, last_run_date) VALUES (1, 'national', now(), $1::date)`, [
        addDays(opts.today, -opts.days),
      ]);
      await loadReference(tx, ref);
    });
    opts.log(`seed: national reference data: ${ref.trains.length} trains, ${ref.staff.ttes.length} TTEs, ${ref.staff.devices.length} HHTs`);
  }

  const days = nationalDays(opts.today, opts.days);
  const present = new Set(
    (await db.query<{ d: string }>('SELECT DISTINCT start_date AS d FROM train_runs WHERE start_date = ANY($1::date[])', [days])).rows.map((r) => r.d),
  );
  const todo = days.filter((d) => !present.has(d));
  if (todo.length < days.length) opts.log(`seed: ${days.length - todo.length} of the ${days.length} days already loaded, kept`);
  const trains = ref.trains.slice(0, opts.trainLimit ?? ref.trains.length);
  const runsPerDay = todo.map((d) => trains.filter((t) => runsOn(t, d)).length);
  const progress = new Progress(runsPerDay.reduce((a, b) => a + b, 0), opts.progress);

  const client = new pg.Client({ connectionString: opts.databaseUrl });
  await client.connect();
  const figures: DayFigures[] = [];
  try {
    for (const [i, date] of todo.entries()) {
      await ensureRunPartitions(db, date, date);
      const before = await databaseBytes(client);
      const started = performance.now();
      const day = await loadNationalDay(client, ref, date, opts, progress, `day ${i + 1}/${todo.length}`);
      const bytes = (await databaseBytes(client)) - before;
      const fig = { date, ...day, seconds: (performance.now() - started) / 1000, bytes };
      figures.push(fig);
      progress.clear();
      opts.log(
        `seed: ${date} ${fig.runs} runs, ${fig.passengers.toLocaleString('en-IN')} passengers, ${fig.rows.toLocaleString('en-IN')} rows in ` +
          `${fig.seconds.toFixed(0)} s, ${(bytes / 2 ** 30).toFixed(2)} GiB`,
      );
    }
  } finally {
    progress.clear();
    await client.end();
  }
  if (todo.length > 0) {
    await db.query('ANALYZE');
    await refreshDeviceSync(db);
  }
  return figures;
}

async function databaseBytes(client: pg.ClientBase): Promise<number> {
  const { rows } = await client.query<{ n: string }>('SELECT pg_database_size(current_database())::text AS n');
  return Number(rows[0]?.n ?? 0);
}

async function loadNationalDay(
  client: pg.ClientBase,
  ref: Reference,
  date: string,
  opts: NationalOptions,
  progress: Progress,
  label: string,
): Promise<{ runs: number; passengers: number; rows: number }> {
  const dayNo = dayIndex(date);
  let runs = 0;
  let passengers = 0;
  let rows = 0;
  await client.query('BEGIN');
  try {
    const su = await client.query<{ su: boolean }>('SELECT rolsuper AS su FROM pg_roles WHERE rolname = current_user');
    // As the seed's loader: the generator's keys are consistent, so a superuser skips the foreign-key triggers.
    if (su.rows[0]?.su) await client.query('SET LOCAL session_replication_role = replica');
    let chunk = emptyRunRows();
    let inChunk = 0;
    const flush = async (): Promise<void> => {
      for (const table of RUN_TABLES) {
        await copyRows(client, table, chunk[table]);
        rows += chunk[table].length;
      }
      progress.advance(inChunk, chunk.passengers.length, RUN_TABLES.reduce((n, t) => n + chunk[t].length, 0), `${label} ${date}`);
      chunk = emptyRunRows();
      inChunk = 0;
    };
    for (const [trainIdx, train] of ref.trains.entries()) {
      if (trainIdx >= (opts.trainLimit ?? Infinity)) break;
      if (!runsOn(train, date)) continue;
      const run = generateRun({ ref, trainIdx }, train, date, date <= opts.today);
      remapPnrs(run, dayNo, trainIdx);
      for (const table of RUN_TABLES) for (const r of run[table]) chunk[table].push(r);
      runs++;
      passengers += run.passengers.length;
      if (++inChunk >= RUNS_PER_CHUNK) await flush();
    }
    if (inChunk > 0) await flush();
    // The day's rollups are recomputed by the dirty set's drain as this COMMIT runs (the whole date in one pass).
    await client.query('UPDATE seed_state SET last_run_date = GREATEST(last_run_date, $1::date) WHERE id = 1', [date]);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
  return { runs, passengers, rows };
}
