import { randomBytes } from 'node:crypto';
import type { Db } from '../db';
import { istDate, type Clock } from '../clock';
import { generateDay } from './loader';
import { buildReference, type Reference, type SeedScale } from './reference';
import { SCALES } from './reference';
import { addDays } from './runs';
import { applyChanges } from './changes';
import { planDay, type PlannedChange, type PlannedChart, type PlannedRecord } from './plan';
import { releaseRecords } from './release';

/**
 * Records and changes come at most this many days after their run's start (multi-day runs, late syncs and TWRs,
 * TDRs filed up to three days after the chart, complaints resolved up to four days after they were registered).
 */
const SYNC_REACH_DAYS = 7;
/** How long a process's claim on the feed lasts without a renewal (another process takes over after it). */
const LEASE_SECONDS = 120;

export interface FeedOptions {
  db: Db;
  clock: Clock;
  log: (line: string) => void;
  /** Release interval; the default 15 s keeps the sync-to-report time of planned data under a quarter minute. */
  intervalMs?: number;
}

export interface Feed {
  /** Releases what became due since the last release; returns the records stored plus the other rows changed. */
  tick(): Promise<number>;
  stop(): Promise<void>;
}

interface Plan {
  records: PlannedRecord[];
  charts: PlannedChart[];
  changes: PlannedChange[];
}

/**
 * The live feed: the generator plans every day of the window deterministically; this releases each planned record
 * once its sync time has passed, through the sync API's ingest (no other way in). Its high-water mark makes a
 * restart catch up exactly: records up to the mark are stored, the rest follow, and a record released twice (a
 * crash between release and mark) is stored once by its record id. A lease in the database keeps one process
 * of several releasing at a time; correctness does not depend on it (idempotent ingest), only the work saved.
 */
export function startFeed(opts: FeedOptions): Feed {
  const { db, clock, log } = opts;
  const owner = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const plans = new Map<string, Plan>();
  const refs = new Map<SeedScale, Reference>();
  let running: Promise<number> | null = null;
  let stopped = false;

  const planOf = (scale: SeedScale, date: string, today: string): Plan => {
    const key = `${date}|${date <= today}`;
    let plan = plans.get(key);
    if (!plan) {
      let ref = refs.get(scale);
      if (!ref) {
        ref = buildReference(scale);
        refs.set(scale, ref);
      }
      const day = planDay(generateDay(ref, date, today), '');
      plan = { records: day.records, charts: day.charts, changes: day.changes };
      plans.set(key, plan);
    }
    return plan;
  };

  const release = async (): Promise<number> => {
    const now = clock.now();
    const lease = await db.query<{ hwm: Date | string; scale: string }>(
      `UPDATE hht_feed_state f SET lease_owner = $1, lease_until = now() + make_interval(secs => $2)
       FROM seed_state s WHERE f.id = 1 AND s.id = 1 AND (f.lease_owner IS NULL OR f.lease_owner = $1 OR f.lease_until < now())
       RETURNING f.hwm, s.scale`,
      [owner, LEASE_SECONDS],
    );
    const row = lease.rows[0];
    if (!row) return 0; // not a live data set, or another process releases
    const hwm = new Date(row.hwm).toISOString();
    const until = now.toISOString();
    if (until <= hwm) return 0;
    const scale = (SCALES as readonly string[]).includes(row.scale) ? (row.scale as SeedScale) : 'small';
    const today = istDate(now);
    const from = addDays(istDate(new Date(hwm)), -SYNC_REACH_DAYS);
    // Only charted runs present in the database: a day the window has not rolled to yet waits for the roll.
    const days = await db.query<{ d: string }>(
      `SELECT DISTINCT start_date AS d FROM train_runs r WHERE start_date BETWEEN $1::date AND $2::date
         AND EXISTS (SELECT 1 FROM beats b WHERE b.run_id = r.run_id) ORDER BY 1`,
      [from, today],
    );
    const wanted = new Set(days.rows.map((r) => `${r.d}|true`));
    for (const key of plans.keys()) if (!wanted.has(key)) plans.delete(key);

    const due: PlannedRecord[] = [];
    const charts: PlannedChart[] = [];
    const changes: PlannedChange[] = [];
    const inRange = (t: string | null): boolean => t !== null && t > hwm && t <= until;
    for (const { d } of days.rows) {
      const plan = planOf(scale, d, today);
      for (const r of plan.records) if (inRange(r.syncTime)) due.push(r);
      for (const c of plan.charts) if (inRange(c.chart1At) || inRange(c.chart2At) || inRange(c.downloadAt)) charts.push(c);
      for (const c of plan.changes) if (inRange(c.at)) changes.push(c);
    }
    // Changes from outside the terminals first: the chart sets the passengers' status an allotment then reads.
    const changed = changes.length > 0 ? await db.transaction((tx) => applyChanges(tx, changes)) : 0;
    const stored = await releaseRecords(db, due, `feed:${until}`, now);
    if (charts.length > 0) {
      // Chart preparation is a PRS event, not an HHT record: the run's times are shown once passed.
      await db.query(
        `UPDATE train_runs t SET chart1_at = coalesce(t.chart1_at, CASE WHEN c.c1 <= $5 THEN c.c1 END),
           chart2_at = coalesce(t.chart2_at, CASE WHEN c.c2 <= $5 THEN c.c2 END),
           hht_download_at = coalesce(t.hht_download_at, CASE WHEN c.dl <= $5 THEN c.dl END)
         FROM unnest($1::bigint[], $2::timestamptz[], $3::timestamptz[], $4::timestamptz[]) AS c(run_id, c1, c2, dl)
         WHERE t.run_id = c.run_id`,
        [charts.map((c) => c.runId), charts.map((c) => c.chart1At), charts.map((c) => c.chart2At), charts.map((c) => c.downloadAt), until],
      );
    }
    await db.query('UPDATE hht_feed_state SET hwm = $2 WHERE id = 1 AND lease_owner = $1 AND hwm < $2', [owner, until]);
    if (stored > 0 || changed > 0) log(`hht feed: ${stored} records synced, ${changed} other rows changed up to ${until}`);
    return stored + changed;
  };

  const tick = (): Promise<number> => {
    if (stopped) return Promise.resolve(0);
    // One release at a time in this process: a slow catch-up is not overtaken by the next interval.
    running ??= release().finally(() => {
      running = null;
    });
    return running;
  };

  const timer = setInterval(() => {
    tick().catch((err: unknown) => log(`hht feed: release failed: ${err instanceof Error ? err.message : String(err)}`));
  }, opts.intervalMs ?? 15_000);
  timer.unref();

  return {
    tick,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running?.catch(() => 0);
      await db.query('UPDATE hht_feed_state SET lease_owner = NULL, lease_until = NULL WHERE id = 1 AND lease_owner = $1', [owner]);
    },
  };
}
