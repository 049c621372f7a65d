import type { Db, Queryable } from './types';
import { ROLLUP_TABLES } from './rollups';

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
  return rows[0]?.made ?? 0;
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
 * Drops every run date before `cutoff` (YYYY-MM-DD): its partitions of the four large tables whole, and the
 * rows of its runs in the other tables (children first, so every foreign key holds at each step). One
 * transaction per date: a date is gone completely or not at all. Returns the dates dropped.
 */
export async function dropRunDatesBefore(db: Db, cutoff: string): Promise<string[]> {
  const dates = await datesBefore(db, cutoff);
  for (const date of dates) {
    const [lo, hi] = runIdRange(date);
    const suffix = `r${date.replaceAll('-', '')}`;
    await db.transaction(async (tx) => {
      const inRange = 'run_id >= $1 AND run_id < $2';
      const del = (table: string): Promise<unknown> => tx.query(`DELETE FROM ${table} WHERE ${inRange}`, [lo, hi]);
      const dropPart = async (table: (typeof PARTITIONED_TABLES)[number]): Promise<void> => {
        // Rows of the date that went to the default partition go row by row; the date's own partition whole.
        await del(`${table}_other`);
        const part = `${table}_${suffix}`;
        const exists = await tx.query('SELECT to_regclass($1) IS NOT NULL AS e', [part]);
        if (exists.rows[0]?.e === true) {
          await tx.exec(`ALTER TABLE ${table} DETACH PARTITION ${part}; DROP TABLE ${part}`);
        }
      };
      await tx.query(`DELETE FROM digital_payments WHERE eft_no IN (SELECT eft_no FROM efts WHERE ${inRange})`, [lo, hi]);
      await dropPart('checking_events');
      await dropPart('vacant_berths');
      for (const t of ['reallocations', 'tdrs', 'efts', 'coach_deficiencies', 'complaints', 'dynamic_fares', 'onboard_staff', 'dropped_etickets']) {
        await del(t);
      }
      await dropPart('passengers');
      await dropPart('pnrs');
      // With the date's events and EFTs gone, refreshing its runs' sync and EFT rollups empties them and redoes the
      // day rows (rollup_sync_day, rollup_eft_day: not per run) of every (date, division) those runs fed, from the
      // runs kept; the EFT day rows of the 31 dates after them too (their TTE counts look back at the dropped dates).
      // TTE-wise EFT ranges (migration 024) holding the date's EFT dates are let go first: they are the oldest kept,
      // and redoing them would recompute every TTE of those dates in each.
      await tx.query('SELECT hht_forget_eft_rank($1, $2)', [lo, hi]);
      await tx.query(`SELECT hht_fill_rollups($1, $2, ARRAY['sync', 'efts'])`, [lo, hi]);
      await del('beats');
      // With the beats gone, refreshing the runs' duty rows empties them and redoes the per-lobby TTE counts
      // (rollup_tte_duty_lobby, per duty date) of the dates they fed.
      await tx.query('SELECT hht_fill_tte_duty($1, $2)', [lo, hi]);
      for (const t of ['run_coaches', ...ROLLUP_TABLES, 'train_runs']) {
        await del(t);
      }
      // Day rows of the manning rollup (migration 021) are per run date, not per run: the date's go with it.
      await tx.query('DELETE FROM rollup_manning_day WHERE start_date = $1::date', [date]);
    });
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
