-- National scale: what the national bench (7 national days against the large seed) still
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

CREATE FUNCTION hht_fill_sync_day(keys hht_day_division[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  b int;
BEGIN
  -- Two sync batches of runs of one division must not each redo the day from a snapshot without the other's
  -- runs: one at a time per (date, division), in a fixed order so two batches cannot wait on each other. Each
  -- statement below then sees the rollup_sync rows of every batch committed before it got the lock. The keys go
  -- in 64 lock buckets: a seed filling many days in one transaction would otherwise hold thousands of locks in the
  -- server's shared lock table (max_locks_per_transaction).
  FOR b IN SELECT DISTINCT hashtext(u.event_date::text || '/' || u.div_code) & 63 FROM unnest(keys) u ORDER BY 1 LOOP
    PERFORM pg_advisory_xact_lock(4242018, b);
  END LOOP;
  DELETE FROM rollup_sync_day s USING unnest(keys) u WHERE s.event_date = u.event_date AND s.div_code = u.div_code;
  INSERT INTO rollup_sync_day
  SELECT ce.event_date, ce.zone_code, ce.div_code, ce.lobby_code,
         sum(ce.events), sum(ce.pending), sum(ce.synced), sum(ce.delay_min_sum), max(ce.max_delay_min),
         sum(ce.delayed_over_30), count(DISTINCT ce.device_id)
    FROM rollup_sync ce
    JOIN (SELECT DISTINCT event_date, div_code FROM unnest(keys)) u ON u.event_date = ce.event_date AND u.div_code = ce.div_code
   GROUP BY GROUPING SETS ((ce.event_date, ce.zone_code, ce.div_code, ce.lobby_code), (ce.event_date, ce.zone_code, ce.div_code));
END
$$;

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

CREATE FUNCTION hht_fill_tte_day(keys hht_day_tte[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  b int;
BEGIN
  -- As hht_fill_sync_day: one batch at a time per key, in 64 lock buckets (a seeded day has ~20,000 keys).
  FOR b IN SELECT DISTINCT hashtext(u.event_date::text || '/' || u.tte_id) & 63 FROM unnest(keys) u ORDER BY 1 LOOP
    PERFORM pg_advisory_xact_lock(4242019, b);
  END LOOP;
  DELETE FROM rollup_tte_day s USING (SELECT DISTINCT event_date, tte_id FROM unnest(keys)) u
   WHERE s.event_date = u.event_date AND s.tte_id = u.tte_id;
  INSERT INTO rollup_tte_day
  SELECT ce.event_date, ce.zone_code, ce.div_code, ce.lobby_code, ce.tte_id,
         string_agg(DISTINCT ce.device_id, ', '), string_agg(DISTINCT ce.train_no, ', '),
         sum(ce.events), sum(ce.pending), min(ce.first_event_at), max(ce.last_event_at), max(ce.last_sync_at)
    FROM rollup_sync ce
    JOIN (SELECT DISTINCT event_date, tte_id FROM unnest(keys)) u ON u.event_date = ce.event_date AND u.tte_id = ce.tte_id
   GROUP BY ce.event_date, ce.zone_code, ce.div_code, ce.lobby_code, ce.tte_id;
END
$$;

-- The rollups of migrations 014 and 015, with the day rows (sync and TTE) kept with rollup_sync.
CREATE OR REPLACE FUNCTION hht_fill_rollups(lo bigint, hi bigint, parts text[] DEFAULT NULL) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  day_keys hht_day_division[];
  tte_keys hht_day_tte[];
BEGIN
  IF parts IS NULL OR 'passengers' = ANY (parts) THEN
    DELETE FROM rollup_run_passengers WHERE run_id >= lo AND run_id < hi;
    INSERT INTO rollup_run_passengers
    SELECT p.run_id, tr.start_date, tr.train_no, tr.zone_code, tr.div_code, p.lobby_code, p.class,
           count(*), count(*) FILTER (WHERE p.mark = 'O'), count(*) FILTER (WHERE p.mark = 'NT'),
           count(*) FILTER (WHERE p.mark IS NULL)
      FROM passengers p
      JOIN train_runs tr ON tr.run_id = p.run_id
     WHERE p.run_id >= lo AND p.run_id < hi AND p.current_status <> 'CAN'
     GROUP BY p.run_id, tr.start_date, tr.train_no, tr.zone_code, tr.div_code, p.lobby_code, p.class;
  END IF;

  IF parts IS NULL OR 'sync' = ANY (parts) THEN
    -- The (event date, division) pairs the range's rows fed before this refresh: their day rows are redone below.
    SELECT array_agg(DISTINCT (event_date, div_code)::hht_day_division), array_agg(DISTINCT (event_date, tte_id)::hht_day_tte)
      INTO day_keys, tte_keys
      FROM rollup_sync WHERE run_id >= lo AND run_id < hi;
    DELETE FROM rollup_sync WHERE run_id >= lo AND run_id < hi;
    INSERT INTO rollup_sync
    SELECT ist_date(ce.device_time), ce.run_id, tr.start_date, tr.train_no, ce.zone_code, ce.div_code, ce.lobby_code,
           ce.tte_id, ce.device_id,
           count(*), count(*) FILTER (WHERE ce.sync_time IS NULL), count(ce.sync_time),
           sum(extract(epoch FROM ce.sync_time - ce.device_time) / 60.0),
           max(extract(epoch FROM ce.sync_time - ce.device_time) / 60.0),
           count(*) FILTER (WHERE ce.sync_time - ce.device_time > interval '30 minutes'),
           min(ce.device_time), max(ce.device_time), max(ce.sync_time)
      FROM checking_events ce
      JOIN train_runs tr ON tr.run_id = ce.run_id
     WHERE ce.run_id >= lo AND ce.run_id < hi
     GROUP BY ist_date(ce.device_time), ce.run_id, tr.start_date, tr.train_no, ce.zone_code, ce.div_code, ce.lobby_code,
           ce.tte_id, ce.device_id;
    PERFORM hht_fill_sync_day(ARRAY(
      SELECT DISTINCT k FROM (
        SELECT unnest(COALESCE(day_keys, '{}')) AS k
        UNION ALL
        SELECT (event_date, div_code)::hht_day_division FROM rollup_sync WHERE run_id >= lo AND run_id < hi
      ) u));
    PERFORM hht_fill_tte_day(ARRAY(
      SELECT DISTINCT k FROM (
        SELECT unnest(COALESCE(tte_keys, '{}')) AS k
        UNION ALL
        SELECT (event_date, tte_id)::hht_day_tte FROM rollup_sync WHERE run_id >= lo AND run_id < hi
      ) u));
  END IF;

  IF parts IS NULL OR 'efts' = ANY (parts) THEN
    DELETE FROM rollup_efts WHERE run_id >= lo AND run_id < hi;
    INSERT INTO rollup_efts
    SELECT ist_date(e.issued_at), e.run_id, e.zone_code, e.div_code, e.lobby_code, e.tte_id,
           count(*), count(*) FILTER (WHERE e.payment_mode <> 'CASH'), sum(e.total),
           COALESCE(sum(e.total) FILTER (WHERE e.payment_mode = 'CASH'), 0),
           COALESCE(sum(e.total) FILTER (WHERE e.payment_mode <> 'CASH'), 0),
           COALESCE(sum(e.total) FILTER (WHERE e.payment_mode = 'CARD'), 0),
           COALESCE(sum(e.total) FILTER (WHERE e.payment_mode = 'UPI'), 0)
      FROM efts e
     WHERE e.run_id >= lo AND e.run_id < hi
     GROUP BY ist_date(e.issued_at), e.run_id, e.zone_code, e.div_code, e.lobby_code, e.tte_id;
  END IF;

  IF parts IS NULL OR 'tdrs' = ANY (parts) THEN
    DELETE FROM rollup_tdrs WHERE run_id >= lo AND run_id < hi;
    INSERT INTO rollup_tdrs
    SELECT td.run_id, tr.start_date, tr.train_no, td.zone_code, td.div_code, td.reason, count(*),
           count(*) FILTER (WHERE td.status = 'FILED'), count(*) FILTER (WHERE td.status = 'ATTESTED'),
           count(*) FILTER (WHERE td.status = 'REFUNDED'), count(*) FILTER (WHERE td.status = 'REJECTED'),
           COALESCE(sum(td.refund_amount) FILTER (WHERE td.status = 'REFUNDED'), 0)
      FROM tdrs td
      JOIN train_runs tr ON tr.run_id = td.run_id
     WHERE td.run_id >= lo AND td.run_id < hi
     GROUP BY td.run_id, tr.start_date, tr.train_no, td.zone_code, td.div_code, td.reason;
  END IF;

  IF parts IS NULL OR 'vacancies' = ANY (parts) THEN
    DELETE FROM rollup_run_vacancies WHERE run_id >= lo AND run_id < hi;
    INSERT INTO rollup_run_vacancies
    SELECT vb.run_id, tr.start_date, tr.train_no, tr.zone_code, tr.div_code, vb.lobby_code, count(*),
           count(*) FILTER (WHERE vb.released_to_prs), count(*) FILTER (WHERE vb.released_to_prs AND vb.rebooked)
      FROM vacant_berths vb
      JOIN train_runs tr ON tr.run_id = vb.run_id
     WHERE vb.run_id >= lo AND vb.run_id < hi
     GROUP BY vb.run_id, tr.start_date, tr.train_no, tr.zone_code, tr.div_code, vb.lobby_code;
  END IF;

  IF parts IS NULL OR 'manning' = ANY (parts) THEN
    PERFORM hht_fill_manning_rollups(lo, hi);
  END IF;
END
$$;

-- A database migrated with data gets its day rows now.
SELECT hht_fill_sync_day(ARRAY(SELECT DISTINCT (event_date, div_code)::hht_day_division FROM rollup_sync));
SELECT hht_fill_tte_day(ARRAY(SELECT DISTINCT (event_date, tte_id)::hht_day_tte FROM rollup_sync));
SELECT hht_fill_rollups(0, 9223372036854775807, ARRAY['efts']);

GRANT SELECT ON rollup_sync_day, rollup_tte_day, rollup_efts TO hht_report;
