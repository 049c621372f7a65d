-- Issue 13, national scale, third pass: the TTE-wise summaries, whose answers have a row per TTE.
--
-- 1. TTE-wise EFT Summary counted the train runs of each TTE with count(DISTINCT run_id), which sorts every rollup row
-- of the range (54,745 rows for 8 national days; a sort spilled to disk, 200 ms of its 300). A run's EFTs by one TTE
-- span one to three IST dates, so each rollup row now says the previous issue date of its (run, TTE) pair
-- (pair_prev_date, NULL on the pair's first date): a pair is in a date range once, on the row whose previous date is
-- before the range or absent, so the runs are a FILTERed count and the grouping a plain hash aggregate. Exact for any
-- range, and kept by the same run-at-a-time upkeep (all rows of a pair belong to one run).
ALTER TABLE rollup_efts ADD COLUMN pair_prev_date date;

-- 2. TTE Manning read every beat of the four run dates that can have a duty on the date (31,811 beats for a national
--    day, of which a quarter are on duty that day) and unnested each beat's coaches for the coaches manned: 190 ms.
--    rollup_tte_duty has a row per run, duty date (the IST date of the sign-on, or the run's start date without one),
--    zone, division, lobby and TTE: beats, coaches manned with an HHT (distinct), the HHTs, first sign-on, last
--    sign-off. The report reads the day's rows from an index. A run's coaches are split between its beats, so a
--    TTE's coaches summed over runs equal the distinct (run, coach) pairs. Kept with the run's manning rollups
--    (beats change only with their run: seed, retention).
CREATE TABLE rollup_tte_duty (
  run_id bigint NOT NULL,
  start_date date NOT NULL,
  duty_date date NOT NULL,
  train_no text NOT NULL,
  zone_code text NOT NULL,
  div_code text NOT NULL,
  lobby_code text NOT NULL,
  tte_id text NOT NULL,
  beats int NOT NULL,
  coaches_manned int NOT NULL,
  device_ids text[] NOT NULL,
  first_sign_on timestamptz,
  last_sign_off timestamptz
);
CREATE INDEX rollup_tte_duty_run ON rollup_tte_duty (run_id);
CREATE INDEX rollup_tte_duty_date ON rollup_tte_duty (duty_date);

-- Concatenates arrays over rows (the HHTs of a TTE's runs, made distinct by the caller).
CREATE AGGREGATE hht_array_cat(anycompatiblearray) (SFUNC = array_cat, STYPE = anycompatiblearray, INITCOND = '{}');

-- 3. Server-paged lists showed a count of their rows that grew with the day: syncDelaySummary counted the day's
--    rollup_sync rows (7,509 a national day), Active Users the day's rollup_tte_day rows. The day rollup's lobby rows
--    now carry both counts (sync_rows: rollup_sync rows; ttes: distinct TTEs, which is the number of rollup_tte_day
--    rows of that date and lobby), and the reports' count SQL (source.count) sums them: about a hundred rows a day.
ALTER TABLE rollup_sync_day ADD COLUMN sync_rows int NOT NULL DEFAULT 0, ADD COLUMN ttes int NOT NULL DEFAULT 0;

GRANT SELECT ON rollup_tte_duty TO hht_report;
