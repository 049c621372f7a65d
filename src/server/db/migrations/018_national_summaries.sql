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

CREATE TYPE hht_day_division AS (event_date date, div_code text);

CREATE FUNCTION hht_fill_sync_day(keys hht_day_division[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  k hht_day_division;
BEGIN
  -- Two sync batches of runs of one division must not each redo the day from a snapshot without the other's
  -- runs: one at a time per (date, division), in a fixed order so two batches cannot wait on each other. Each
  -- statement below then sees the rollup_sync rows of every batch committed before it got the lock.
  FOR k IN SELECT DISTINCT u.event_date, u.div_code FROM unnest(keys) u ORDER BY 1, 2 LOOP
    PERFORM pg_advisory_xact_lock(4242018, hashtext(k.event_date::text || '/' || k.div_code));
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

-- The rollups of migrations 014 and 015, with the sync day rows kept with rollup_sync.
CREATE OR REPLACE FUNCTION hht_fill_rollups(lo bigint, hi bigint, parts text[] DEFAULT NULL) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  day_keys hht_day_division[];
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
    SELECT array_agg(DISTINCT (event_date, div_code)::hht_day_division) INTO day_keys
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
  END IF;

  IF parts IS NULL OR 'efts' = ANY (parts) THEN
    DELETE FROM rollup_efts WHERE run_id >= lo AND run_id < hi;
    INSERT INTO rollup_efts
    SELECT ist_date(e.issued_at), e.run_id, e.zone_code, e.div_code, e.lobby_code, e.tte_id, e.payment_mode,
           count(*), sum(e.total)
      FROM efts e
     WHERE e.run_id >= lo AND e.run_id < hi
     GROUP BY ist_date(e.issued_at), e.run_id, e.zone_code, e.div_code, e.lobby_code, e.tte_id, e.payment_mode;
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

GRANT SELECT ON rollup_sync_day TO hht_report;
