-- National scale: the TTE-wise summaries, whose answers have a row per TTE.
--
-- 1. TTE-wise EFT Summary counted the train runs of each TTE with count(DISTINCT run_id), which sorts every rollup row
-- of the range (54,745 rows for 8 national days; a sort spilled to disk, 200 ms of its 300). A run's EFTs by one TTE
-- span one to three IST dates, so each rollup row now says the previous issue date of its (run, TTE) pair
-- (pair_prev_date, NULL on the pair's first date): a pair is in a date range once, on the row whose previous date is
-- before the range or absent, so the runs are a FILTERed count and the grouping a plain hash aggregate. Exact for any
-- range, and kept by the same run-at-a-time upkeep (all rows of a pair belong to one run).
ALTER TABLE rollup_efts ADD COLUMN pair_prev_date date;

-- The EFT part of hht_fill_rollups, on its own so that a later change to the EFT rollup replaces only this.
CREATE OR REPLACE FUNCTION hht_fill_efts(lo bigint, hi bigint) RETURNS void LANGUAGE sql AS $$
  DELETE FROM rollup_efts WHERE run_id >= lo AND run_id < hi;
  INSERT INTO rollup_efts (issue_date, run_id, zone_code, div_code, lobby_code, tte_id, efts, digital_efts, total, cash,
                           digital, card, upi, pair_prev_date)
  SELECT d.*, lag(d.issue_date) OVER (PARTITION BY d.run_id, d.zone_code, d.div_code, d.lobby_code, d.tte_id ORDER BY d.issue_date)
    FROM (SELECT ist_date(e.issued_at) AS issue_date, e.run_id, e.zone_code, e.div_code, e.lobby_code, e.tte_id,
                 count(*), count(*) FILTER (WHERE e.payment_mode <> 'CASH'), sum(e.total),
                 COALESCE(sum(e.total) FILTER (WHERE e.payment_mode = 'CASH'), 0),
                 COALESCE(sum(e.total) FILTER (WHERE e.payment_mode <> 'CASH'), 0),
                 COALESCE(sum(e.total) FILTER (WHERE e.payment_mode = 'CARD'), 0),
                 COALESCE(sum(e.total) FILTER (WHERE e.payment_mode = 'UPI'), 0)
            FROM efts e
           WHERE e.run_id >= lo AND e.run_id < hi
           GROUP BY ist_date(e.issued_at), e.run_id, e.zone_code, e.div_code, e.lobby_code, e.tte_id) d;
$$;

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

CREATE OR REPLACE FUNCTION hht_fill_tte_duty(lo bigint, hi bigint) RETURNS void LANGUAGE sql AS $$
  DELETE FROM rollup_tte_duty WHERE run_id >= lo AND run_id < hi;
  WITH bt AS (
    SELECT b.run_id, tr.start_date, COALESCE(ist_date(b.sign_on_at), tr.start_date) AS duty_date, tr.train_no, b.zone_code,
           b.div_code, b.lobby_code, b.tte_id, b.device_id, b.coaches, b.sign_on_at, b.sign_off_at
      FROM beats b
      JOIN train_runs tr ON tr.run_id = b.run_id
     WHERE b.run_id >= lo AND b.run_id < hi
  ), manned AS (
    SELECT bt.run_id, bt.duty_date, bt.zone_code, bt.div_code, bt.lobby_code, bt.tte_id, count(DISTINCT c.coach_id)::int AS coaches
      FROM bt CROSS JOIN LATERAL unnest(bt.coaches) AS c(coach_id)
     WHERE bt.device_id IS NOT NULL
     GROUP BY bt.run_id, bt.duty_date, bt.zone_code, bt.div_code, bt.lobby_code, bt.tte_id
  )
  INSERT INTO rollup_tte_duty
  SELECT bt.run_id, bt.start_date, bt.duty_date, bt.train_no, bt.zone_code, bt.div_code, bt.lobby_code, bt.tte_id, count(*),
         COALESCE(max(m.coaches), 0),
         COALESCE(array_agg(DISTINCT bt.device_id ORDER BY bt.device_id) FILTER (WHERE bt.device_id IS NOT NULL), '{}'),
         min(bt.sign_on_at), max(bt.sign_off_at)
    FROM bt
    LEFT JOIN manned m ON m.run_id = bt.run_id AND m.duty_date = bt.duty_date AND m.zone_code = bt.zone_code
                      AND m.div_code = bt.div_code AND m.lobby_code = bt.lobby_code AND m.tte_id = bt.tte_id
   GROUP BY bt.run_id, bt.start_date, bt.duty_date, bt.train_no, bt.zone_code, bt.div_code, bt.lobby_code, bt.tte_id;
$$;

-- Concatenates arrays over rows (the HHTs of a TTE's runs, made distinct by the caller).
CREATE AGGREGATE hht_array_cat(anycompatiblearray) (SFUNC = array_cat, STYPE = anycompatiblearray, INITCOND = '{}');

-- 3. Server-paged lists showed a count of their rows that grew with the day: syncDelaySummary counted the day's
--    rollup_sync rows (7,509 a national day), Active Users the day's rollup_tte_day rows. The day rollup's lobby rows
--    now carry both counts (sync_rows: rollup_sync rows; ttes: distinct TTEs, which is the number of rollup_tte_day
--    rows of that date and lobby), and the reports' count SQL (source.count) sums them: about a hundred rows a day.
ALTER TABLE rollup_sync_day ADD COLUMN sync_rows int NOT NULL DEFAULT 0, ADD COLUMN ttes int NOT NULL DEFAULT 0;

CREATE OR REPLACE FUNCTION hht_fill_sync_day(keys hht_day_division[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  b int;
BEGIN
  -- As in migration 018: one batch at a time per (date, division), in 64 lock buckets taken in order.
  FOR b IN SELECT DISTINCT hashtext(u.event_date::text || '/' || u.div_code) & 63 FROM unnest(keys) u ORDER BY 1 LOOP
    PERFORM pg_advisory_xact_lock(4242018, b);
  END LOOP;
  DELETE FROM rollup_sync_day s USING unnest(keys) u WHERE s.event_date = u.event_date AND s.div_code = u.div_code;
  INSERT INTO rollup_sync_day (event_date, zone_code, div_code, lobby_code, events, pending, synced, delay_min_sum,
                               max_delay_min, delayed_over_30, hhts, sync_rows, ttes)
  SELECT ce.event_date, ce.zone_code, ce.div_code, ce.lobby_code,
         sum(ce.events), sum(ce.pending), sum(ce.synced), sum(ce.delay_min_sum), max(ce.max_delay_min),
         sum(ce.delayed_over_30), count(DISTINCT ce.device_id), count(*), count(DISTINCT ce.tte_id)
    FROM rollup_sync ce
    JOIN (SELECT DISTINCT event_date, div_code FROM unnest(keys)) u ON u.event_date = ce.event_date AND u.div_code = ce.div_code
   GROUP BY GROUPING SETS ((ce.event_date, ce.zone_code, ce.div_code, ce.lobby_code), (ce.event_date, ce.zone_code, ce.div_code));
END
$$;

-- hht_fill_rollups as in migration 018, its EFT part now hht_fill_efts, and the TTE duty rows kept with manning.
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
    PERFORM hht_fill_efts(lo, hi);
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
    PERFORM hht_fill_tte_duty(lo, hi);
  END IF;
END
$$;


-- A database migrated with data gets the new column and table filled now.
SELECT hht_fill_efts(0, 9223372036854775807);
SELECT hht_fill_tte_duty(0, 9223372036854775807);
SELECT hht_fill_sync_day(ARRAY(SELECT DISTINCT (event_date, div_code)::hht_day_division FROM rollup_sync));

GRANT SELECT ON rollup_tte_duty TO hht_report;
