import type { Db, Queryable } from './types';

/**
 * Run-date partitions (migration 013): pnrs, passengers, checking_events and vacant_berths are partitioned by
 * run_id ranges of one run date each (run_id = day * 100000 + train_no). Partitions are made ahead of the data
 * (seed, window roll, background job); retention drops whole ones.
 */
export const PARTITIONED_TABLES = ['pnrs', 'passengers', 'checking_events', 'vacant_berths'] as const;

/** Days of partitions kept ready ahead of today. */
export const PARTITIONS_AHEAD_DAYS = 7;

const DAY_MS = 86_400_000;
const EPOCH_2000 = Date.UTC(2000, 0, 1);

/** The run_id range [lo, hi) of a run date 'YYYY-MM-DD'. */
export function runIdRange(date: string): [number, number] {
  const day = Math.round((Date.parse(`${date}T00:00:00Z`) - EPOCH_2000) / DAY_MS);
  return [day * 100_000, (day + 1) * 100_000];
}

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Creates the partitions of every run date from `first` to `last` (YYYY-MM-DD) that are missing; returns how many. */
export async function ensureRunPartitions(db: Queryable, first: string, last: string): Promise<number> {
  const { rows } = await db.query<{ made: number }>('SELECT hht_ensure_run_partitions($1::date, $2::date) AS made', [first, last]);
  const made = rows[0]?.made ?? 0;
  // A statement on a partition fires the partition's own triggers: new ones get the dirty-set triggers too.
  if (made > 0) await db.query('SELECT hht_watch_rollup_sources()');
  return made;
}

/** The partitions of a partitioned table, with their run date ('other' for the default partition). */
export async function listRunPartitions(db: Queryable, table: (typeof PARTITIONED_TABLES)[number]): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = $1::regclass ORDER BY 1`,
    [table],
  );
  return rows.map((r) => r.name);
}

/** Run dates before `cutoff` that still hold runs or partitions, oldest first. */
async function datesBefore(db: Queryable, cutoff: string): Promise<string[]> {
  const dates = new Set<string>();
  const runs = await db.query<{ d: string }>('SELECT DISTINCT start_date AS d FROM train_runs WHERE start_date < $1::date', [cutoff]);
  for (const r of runs.rows) dates.add(r.d);
  for (const name of await listRunPartitions(db, 'pnrs')) {
    const m = /^pnrs_r(\d{4})(\d{2})(\d{2})$/.exec(name);
    if (m) {
      const d = `${m[1]}-${m[2]}-${m[3]}`;
      if (d < cutoff) dates.add(d);
    }
  }
  return [...dates].sort();
}

/**
 * Drops every run date before `cutoff` (YYYY-MM-DD), one transaction per date (a date is gone completely or not at
 * all), through hht_drop_run_date: a dropped partition fires no DELETE trigger, so that function puts the date's runs
 * in the dirty set itself and the drain at commit empties their rollups and redoes the day rows they fed. Returns the
 * dates dropped.
 */
export async function dropRunDatesBefore(db: Db, cutoff: string): Promise<string[]> {
  const dates = await datesBefore(db, cutoff);
  for (const date of dates) {
    await db.transaction((tx) => tx.query('SELECT hht_drop_run_date($1::date)', [date]));
  }
  return dates;
}

/**
 * The daily partition job: partitions ready from yesterday to PARTITIONS_AHEAD_DAYS ahead and, with a retention
 * of N days, every run date before today - (N - 1) dropped. Returns what it did, for the log.
 */
export async function maintainPartitions(db: Db, today: string, retentionDays: number | undefined): Promise<{ made: number; dropped: string[] }> {
  const made = await ensureRunPartitions(db, addDays(today, -1), addDays(today, PARTITIONS_AHEAD_DAYS));
  const dropped = retentionDays === undefined ? [] : await dropRunDatesBefore(db, addDays(today, -(retentionDays - 1)));
  return { made, dropped };
}
