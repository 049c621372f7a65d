-- Issue 13, national scale, second pass: what the national bench (7 national days against the large seed) still
-- found slow or growing with the day's trains.
--
-- 1. mask_name: the SQL function with a set-returning split and string_agg cannot be inlined and cost about 8 us a
--    name, 90 % of All_Passenger_Report's 1,237-row answer. Names of one or two words separated by one space (all
--    but a handful) are masked with plain string functions; any other name by the general rule, in one regular
--    expression. Same result for every input (checked on 200,000 national names and the edge cases in
--    tests/api/national-storage.test.ts), and inlinable.
CREATE OR REPLACE FUNCTION mask_name(n text) RETURNS text
  LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
           WHEN n ~ '^\S+ \S+$' THEN left(n, 1) || repeat('*', strpos(n, ' ') - 2) || substr(n, strpos(n, ' '), 2)
                                      || repeat('*', length(n) - strpos(n, ' ') - 1)
           WHEN n ~ '^\S+$' THEN left(n, 1) || repeat('*', length(n) - 1)
           ELSE regexp_replace(regexp_replace(n, '\s+', ' ', 'g'), '(?<=\S)\S', '*', 'g')
         END
$$;

-- 2. TDRs by filing time (the dashboard's TDR card and its list: the TDRs filed in a date range).
CREATE INDEX tdrs_filed ON tdrs (filed_at);

-- 3. Sync delay per IST event date and division (SyncDelayDateWise): one row per (date, division, lobby) and one
--    per (date, division) with lobby_code NULL. The report reads the division rows for users who see a whole
--    division or more, and the lobby rows for lobby users (their scope predicate, lobby_code = X, never matches a
--    division row); each carries its own distinct HHT count, which cannot be summed from finer rows. A day has
--    about a hundred such rows at national scale whatever the number of trains, so the 7-day report reads ~700
--    rows instead of ~50,000 per-run ones. Kept from rollup_sync (not the raw events) by hht_fill_sync_day,
--    which hht_fill_rollups calls for the (date, division) pairs a run refresh touched.
CREATE TABLE rollup_sync_day (
  event_date date NOT NULL,
  zone_code text NOT NULL,
  div_code text NOT NULL,
  lobby_code text,
  events int NOT NULL,
  pending int NOT NULL,
  synced int NOT NULL,
  delay_min_sum numeric,
  max_delay_min numeric,
  delayed_over_30 int NOT NULL,
  hhts int NOT NULL
);
CREATE INDEX rollup_sync_day_date ON rollup_sync_day (event_date, div_code);
CREATE INDEX rollup_sync_date_div ON rollup_sync (event_date, div_code);

-- 4. syncDelaySummary lists rollup_sync's rows of a date as they are (one per run, TTE and HHT: nothing to regroup)
--    in this order, server-paged: a page reads its rows from this index and stops, whatever the day's size.
CREATE INDEX rollup_sync_delay_order ON rollup_sync (event_date, pending DESC, round(max_delay_min, 1) DESC NULLS LAST, train_no);

CREATE TYPE hht_day_division AS (event_date date, div_code text);

-- 6. The EFT rollup with the payment modes as columns (one row per IST issue date, run, TTE; 42 % fewer rows at
--    national scale than one per payment mode, and plain sums instead of FILTERed ones): EFT Summary reads it
--    about 1.6x faster, its TTE-wise tab about 1.3x. Same upkeep as before (the 'efts' part of hht_fill_rollups).
DROP TABLE rollup_efts;
CREATE TABLE rollup_efts (
  issue_date date NOT NULL,
  run_id bigint NOT NULL,
  zone_code text NOT NULL,
  div_code text NOT NULL,
  lobby_code text NOT NULL,
  tte_id text NOT NULL,
  efts int NOT NULL,
  digital_efts int NOT NULL,
  total numeric NOT NULL,
  cash numeric NOT NULL,
  digital numeric NOT NULL,
  card numeric NOT NULL,
  upi numeric NOT NULL
);
CREATE INDEX rollup_efts_run ON rollup_efts (run_id);
CREATE INDEX rollup_efts_date ON rollup_efts (issue_date);

-- 5. Active users per IST event date, lobby and TTE (Active_Users): the answer's own rows (one per TTE, ~7,300 a
--    national day), kept from rollup_sync for the (date, TTE) pairs a run refresh touched. Read in the report's
--    order from an index, a server page is 50 rows read and a stop; the count is one index range.
CREATE TABLE rollup_tte_day (
  event_date date NOT NULL,
  zone_code text NOT NULL,
  div_code text NOT NULL,
  lobby_code text NOT NULL,
  tte_id text NOT NULL,
  hht_ids text,
  trains text NOT NULL,
  events int NOT NULL,
  pending int NOT NULL,
  first_event_at timestamptz NOT NULL,
  last_event_at timestamptz NOT NULL,
  last_sync_at timestamptz
);
CREATE INDEX rollup_tte_day_order ON rollup_tte_day (event_date, lobby_code, tte_id);
CREATE INDEX rollup_tte_day_key ON rollup_tte_day (event_date, tte_id);
CREATE INDEX rollup_sync_date_tte ON rollup_sync (event_date, tte_id);

CREATE TYPE hht_day_tte AS (event_date date, tte_id text);

GRANT SELECT ON rollup_sync_day, rollup_tte_day, rollup_efts TO hht_report;
