import type { Queryable } from './types';

/**
 * Rollups (migrations 014, 015, 020): per-run summaries the India-wide and multi-day reports read instead of raw rows.
 * They are recomputed a whole run at a time from the raw tables (hht_fill_rollups), so they are exact whatever
 * changed: the seed fills a day after writing it, the HHT ingest refreshes the runs a batch touched
 * (src/server/hht/rollups.ts), retention drops them with their runs.
 *
 * rollup_sync_day (migration 018) is per IST date and division, not per run: hht_fill_rollups redoes the day rows
 * of the (date, division) pairs a refreshed run fed, from rollup_sync, so it is not listed here (retention clears it
 * by refreshing the dropped runs' sync part, see partitions.ts). So is rollup_eft_day (migration 022, per IST date
 * and division with its lobbies), redone by hht_fill_efts from rollup_efts for the (date, division) pairs a run fed
 * and the 31 dates after them, and so are the TTE-wise EFT ranks (migration 024, per date range: rollup_eft_rank and
 * its ranges), kept by hht_fill_efts for the TTEs a run fed and let go by retention (hht_forget_eft_rank).
 */
export const ROLLUP_TABLES = [
  'rollup_run_passengers', 'rollup_sync', 'rollup_efts', 'rollup_tdrs', 'rollup_run_vacancies', 'rollup_run_manning', 'rollup_coach_manning',
  'rollup_tte_duty',
] as const;

/** The groups hht_fill_rollups can refresh on their own (its `parts`). */
export type RollupPart = 'passengers' | 'sync' | 'efts' | 'tdrs' | 'vacancies' | 'manning';

/** The rollups of every run of one run date (YYYY-MM-DD). */
export async function fillRollupsForDate(db: Queryable, date: string): Promise<void> {
  await db.query('SELECT hht_fill_rollups_for_date($1::date)', [date]);
}

/** The given rollup parts of the given runs, one run at a time (each is its own run_id range). */
export async function fillRollupsForRuns(db: Queryable, runs: ReadonlyMap<number, ReadonlySet<RollupPart>>): Promise<void> {
  for (const [runId, parts] of runs) {
    if (parts.size === 0) continue;
    await db.query('SELECT hht_fill_rollups($1::bigint, $1::bigint + 1, $2::text[])', [runId, [...parts].sort()]);
  }
}
