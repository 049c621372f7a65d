-- Issue 13, national scale: the two summaries that still read a row per run for every day of their range.
--
-- 1. Coach Manning Summary (per zone, division and run date) summed rollup_run_manning's ~3,200 rows a national day.
--    rollup_manning_day holds those sums per run date, zone and division (~70 rows a day), redone for the run dates
--    and divisions a run refresh touched, from rollup_run_manning, at the end of hht_fill_manning_rollups (so the
--    seed and fill-for-date keep it); retention deletes a dropped date's rows with its runs.
CREATE TABLE rollup_manning_day (
  start_date date NOT NULL,
  zone_code text NOT NULL,
  div_code text NOT NULL,
  runs_with_coaches int NOT NULL,
  coaches int NOT NULL,
  manned int NOT NULL
);
CREATE INDEX rollup_manning_day_date ON rollup_manning_day (start_date, div_code);

-- 2. TDR Summary for one train (the call its page makes from a train link) filtered rollup_tdrs by train after
--    reading every run of the range: an index by train and date reads that train's rows only.
CREATE INDEX rollup_tdrs_train ON rollup_tdrs (train_no, start_date);

GRANT SELECT ON rollup_manning_day TO hht_report;
