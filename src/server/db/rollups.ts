import type { Queryable } from './types';

/**
 * Rollups (migration 014): per-run summaries the India-wide and multi-day reports read instead of raw rows.
 * They are recomputed a whole run at a time from the raw tables (hht_fill_rollups), so they are exact whatever
 * changed: the seed fills a day after writing it, the HHT ingest refreshes the runs a batch touched
 * (src/server/hht/rollups.ts), retention drops them with their runs.
 */
export const ROLLUP_TABLES = [
  'rollup_run_passengers', 'rollup_sync', 'rollup_efts', 'rollup_tdrs', 'rollup_run_vacancies', 'rollup_run_manning', 'rollup_coach_manning',
] as const;

/** The rollups of every run of one run date (YYYY-MM-DD). */
export async function fillRollupsForDate(db: Queryable, date: string): Promise<void> {
  await db.query('SELECT hht_fill_rollups_for_date($1::date)', [date]);
}

/** The rollups of the given runs, one run at a time (each is its own run_id range). */
export async function fillRollupsForRuns(db: Queryable, runIds: Iterable<number>): Promise<void> {
  for (const runId of new Set(runIds)) await db.query('SELECT hht_fill_rollups($1::bigint, $1::bigint + 1)', [runId]);
}
