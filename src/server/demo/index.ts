import type { Db } from '../db/types';
import { drainRollups } from '../db/rollups';
import { buildReference, SCALES, type Reference, type SeedScale } from './reference';
import { deleteRunsOf, generateDay, loadDay, loadReference, refreshDeviceSync, tableCounts } from './loader';
import { addDays } from './runs';
import { planDay } from './plan';
import { releaseRecords } from './release';
import type { PlannedRecord } from './plan';

export type { SeedScale } from './reference';
export { SCALES } from './reference';

export interface SeedOptions {
  scale: SeedScale;
  /** 'YYYY-MM-DD' (IST) the window is relative to: runs from today-30 to today+1. */
  today: string;
  log: (line: string) => void;
  /**
   * Live data (the HHT feed): load only what terminals would have synced by this time, through the sync
   * ingest; the rest is released by the feed (src/server/demo/feed.ts). Absent: every day complete, as planned.
   */
  liveAt?: Date;
  /** Told how far the window's fill is: before each day (day 1 first), then once more for the terminals' records. */
  progress?: (p: SeedProgress) => void;
}

/** How far a fill is: working on day `day` of `days`, or (step 'records') releasing what terminals synced. */
export interface SeedProgress {
  day: number;
  days: number;
  step: 'day' | 'records';
}

/** Days kept behind today; the window runs from today - WINDOW_PAST to tomorrow. */
export const WINDOW_PAST = 30;

const references = new Map<SeedScale, Reference>();
function referenceFor(scale: SeedScale): Reference {
  let ref = references.get(scale);
  if (!ref) {
    ref = buildReference(scale);
    references.set(scale, ref);
  }
  return ref;
}

export function isSeedScale(value: string): value is SeedScale {
  return (SCALES as readonly string[]).includes(value);
}

const fmt = (n: number): string => n.toLocaleString('en-IN');

/**
 * Seeds the demo data set when the database holds none; returns whether it seeded. Claiming seed_state
 * first (with the reference data, in one transaction) makes a second instance starting at the same time
 * back off, and lets fillWindow resume a seed that was interrupted.
 */
export async function ensureSeeded(db: Db, opts: SeedOptions): Promise<boolean> {
  const started = performance.now();
  const ref = referenceFor(opts.scale);
  const claimed = await db.transaction(async (tx) => {
    const existing = await tx.query('SELECT 1 FROM train_runs LIMIT 1');
    if (existing.rows.length > 0) return false;
    const claim = await tx.query(
      `INSERT INTO seed_state (id, scale, seeded_at, last_run_date) VALUES (1, $1, now(), $2::date)
       ON CONFLICT (id) DO NOTHING RETURNING id`,
      [opts.scale, addDays(opts.today, -WINDOW_PAST - 1)],
    );
    if (claim.rows.length === 0) return false;
    await loadReference(tx, ref);
    return true;
  });
  if (!claimed) return false;
  opts.log(`seed: scale ${opts.scale}, ${ref.trains.length} trains, window ${addDays(opts.today, -WINDOW_PAST)} to ${addDays(opts.today, 1)}`);
  await fillWindow(db, opts);
  const counts = await tableCounts(db);
  opts.log(`seed: done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  opts.log(`seed: totals ${counts.map(([t, n]) => `${t} ${fmt(n)}`).join(', ')}`);
  return true;
}

/**
 * Planner statistics from a tenth of ANALYZE's usual sample, for the seed's own statements between its loads: about
 * half a full ANALYZE's time; the full one follows at the end of the fill.
 */
async function analyseRoughly(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('SET LOCAL default_statistics_target = 10');
    await tx.query('ANALYZE');
  });
}

/**
 * Generates the runs of any day missing from the rolling window up to tomorrow, and charts runs that were
 * generated as 'tomorrow' (booking phase) once their date has come; returns the runs written. Days already
 * complete are never regenerated.
 */
export async function fillWindow(db: Db, opts: SeedOptions): Promise<number> {
  const state = await db.query<{ scale: string; last_run_date: string }>('SELECT scale, last_run_date FROM seed_state WHERE id = 1');
  const s = state.rows[0];
  if (!s) return 0;
  // The data set keeps the scale it was seeded with.
  const ref = referenceFor(isSeedScale(s.scale) ? s.scale : opts.scale);
  const windowStart = addDays(opts.today, -WINDOW_PAST);
  const windowEnd = addDays(opts.today, 1);

  const uncharted = await db.query<{ d: string }>(
    // Booking-phase runs have no beats; a live run whose chart time has not come yet has them (and is kept).
    `SELECT DISTINCT start_date AS d FROM train_runs r WHERE chart1_at IS NULL AND start_date <= $1::date
       AND NOT EXISTS (SELECT 1 FROM beats b WHERE b.run_id = r.run_id) ORDER BY 1`,
    [opts.today],
  );
  const redo = uncharted.rows.map((r) => r.d);
  if (redo.length > 0) await db.transaction((tx) => deleteRunsOf(tx, redo));

  const days: string[] = [...redo];
  let d = s.last_run_date >= windowStart ? addDays(s.last_run_date, 1) : windowStart;
  for (; d <= windowEnd; d = addDays(d, 1)) if (!days.includes(d)) days.push(d);
  days.sort();

  let runs = 0;
  let passengers = 0;
  // Live data: a first live fill starts the feed's mark at the window's start, so an interrupted seed is caught up
  // by the feed (records are idempotent); a completed one moves it to liveAt below.
  const firstLive = opts.liveAt !== undefined && days.length > 0
    && (await db.query('INSERT INTO hht_feed_state (id, hwm) VALUES (1, $1) ON CONFLICT (id) DO NOTHING RETURNING id', [`${windowStart}T00:00:00+05:30`])).rows.length > 0;
  // Due records of several days go out together: fewer, larger batches per device (up to 5,000 records each).
  let due: PlannedRecord[] = [];
  let roughStatistics = false;
  const flush = async (tag: string): Promise<void> => {
    if (opts.liveAt && due.length > 0) {
      // The records' statements are planned on the base rows' statistics: without any, PGlite's plans of the
      // allotments' vacancy statements took about 1 s each (tests/bench/seed-phases.ts).
      if (!roughStatistics) await analyseRoughly(db);
      roughStatistics = true;
      await releaseRecords(db, due, tag, opts.liveAt, true);
    }
    due = [];
  };
  for (const [i, date] of days.entries()) {
    opts.progress?.({ day: i + 1, days: days.length, step: 'day' });
    const rows = generateDay(ref, date, opts.today);
    if (opts.liveAt) {
      const until = opts.liveAt.toISOString();
      const plan = planDay(rows, until);
      if (!(await loadDay(db, plan.base, date))) continue;
      for (const r of plan.records) if (r.syncTime <= until) due.push(r);
      if (due.length >= 100_000) await flush(`seed:${date}`);
    } else if (!(await loadDay(db, rows, date))) continue;
    runs += rows.train_runs.length;
    passengers += rows.passengers.length;
    opts.log(`seed: ${date} (${i + 1}/${days.length} days) ${rows.train_runs.length} runs, ${fmt(rows.passengers.length)} passengers`);
  }
  // Planner statistics for the rows just loaded (or never analysed, in a data set seeded by an older version):
  // PGlite has no autovacuum, so without this reports were planned on empty-table estimates.
  if (days.length > 0) opts.progress?.({ day: days.length, days: days.length, step: 'records' });
  const unanalysed = await db.query("SELECT 1 FROM pg_class WHERE relname = 'checking_events' AND reltuples < 0");
  const analyse = days.length > 0 || unanalysed.rows.length > 0;
  const released = roughStatistics || due.length > 0;
  await flush(`seed:${windowEnd}`);
  // The days' rollups in one recompute (loadDay and the records deferred theirs), then statistics for everything.
  if (days.length > 0) await drainRollups(db);
  if (analyse || released) await db.query('ANALYZE');
  // The feed releases what was planned after this (a later start catches up from its own mark instead).
  if (firstLive && opts.liveAt) await db.query('UPDATE hht_feed_state SET hwm = $1 WHERE id = 1', [opts.liveAt.toISOString()]);
  if (days.length > 0) {
    await refreshDeviceSync(db);
    opts.log(`seed: window filled, ${fmt(runs)} runs and ${fmt(passengers)} passengers added`);
  }
  return runs;
}
