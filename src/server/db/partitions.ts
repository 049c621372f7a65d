import type { Queryable } from './types';

/**
 * Run-date partitions (migration 013): pnrs, passengers, checking_events and vacant_berths are partitioned by
 * run_id ranges of one run date each. Partitions are made ahead of the data (seed, window roll, background job);
 * retention drops whole ones.
 */
export const PARTITIONED_TABLES = ['pnrs', 'passengers', 'checking_events', 'vacant_berths'] as const;

/** Creates the partitions of every run date from `first` to `last` (YYYY-MM-DD) that are missing; returns how many. */
export async function ensureRunPartitions(db: Queryable, first: string, last: string): Promise<number> {
  const { rows } = await db.query<{ made: number }>('SELECT hht_ensure_run_partitions($1::date, $2::date) AS made', [first, last]);
  return rows[0]?.made ?? 0;
}
