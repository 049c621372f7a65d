-- National scale: the two summaries that still read a row per run for every day of their range.
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

CREATE FUNCTION hht_fill_manning_day(keys hht_day_division[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  b int;
BEGIN
  IF cardinality(keys) = 0 THEN
    RETURN;
  END IF;
  -- As the sync day rows: one refresh at a time per (date, division), in 64 lock buckets taken in order.
  FOR b IN SELECT DISTINCT hashtext(u.event_date::text || '/' || u.div_code) & 63 FROM unnest(keys) u ORDER BY 1 LOOP
    PERFORM pg_advisory_xact_lock(4242021, b);
  END LOOP;
  DELETE FROM rollup_manning_day m USING unnest(keys) u WHERE m.start_date = u.event_date AND m.div_code = u.div_code;
  INSERT INTO rollup_manning_day
  SELECT tr.start_date, tr.zone_code, tr.div_code, count(*) FILTER (WHERE tr.reserved_coaches > 0),
         sum(tr.reserved_coaches), sum(tr.manned_coaches)
    FROM rollup_run_manning tr
    JOIN unnest(keys) u ON u.event_date = tr.start_date AND u.div_code = tr.div_code
   GROUP BY tr.start_date, tr.zone_code, tr.div_code;
END
$$;

-- hht_fill_manning_rollups as in migration 015, then the day rows of what it refreshed.
CREATE OR REPLACE FUNCTION hht_fill_manning_rollups(lo bigint, hi bigint) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  keys hht_day_division[];
BEGIN
  -- The (run date, division) pairs the range fed before this refresh: their day rows are redone with the new ones'.
  SELECT array_agg(DISTINCT (start_date, div_code)::hht_day_division) INTO keys FROM rollup_run_manning WHERE run_id >= lo AND run_id < hi;
  DELETE FROM rollup_run_manning WHERE run_id >= lo AND run_id < hi;
  INSERT INTO rollup_run_manning
  SELECT tr.run_id, tr.start_date, tr.train_no, tr.zone_code, tr.div_code,
         (SELECT count(*) FROM run_coaches rc WHERE rc.run_id = tr.run_id),
         (SELECT count(*) FROM run_coaches rc
           WHERE rc.run_id = tr.run_id
             AND EXISTS (SELECT 1 FROM beats b WHERE b.run_id = tr.run_id AND b.device_id IS NOT NULL AND rc.coach_id = ANY (b.coaches))),
         (SELECT count(DISTINCT b.device_id) FROM beats b WHERE b.run_id = tr.run_id),
         EXISTS (SELECT 1 FROM beats b WHERE b.run_id = tr.run_id AND b.device_id IS NOT NULL),
         (SELECT b.lobby_code FROM beats b WHERE b.run_id = tr.run_id ORDER BY b.beat_no LIMIT 1)
    FROM train_runs tr
   WHERE tr.run_id >= lo AND tr.run_id < hi;

  DELETE FROM rollup_coach_manning WHERE run_id >= lo AND run_id < hi;
  INSERT INTO rollup_coach_manning
  SELECT rc.run_id, tr.start_date, tr.zone_code, tr.div_code, cl.lobby_code, mb.lobby_code IS NOT NULL, count(*)
    FROM run_coaches rc
    JOIN train_runs tr ON tr.run_id = rc.run_id
    LEFT JOIN LATERAL (
          SELECT b.lobby_code FROM beats b
           WHERE b.run_id = rc.run_id AND b.device_id IS NOT NULL AND rc.coach_id = ANY (b.coaches)
           ORDER BY b.beat_no LIMIT 1
         ) mb ON TRUE
    LEFT JOIN LATERAL (
          SELECT coalesce(mb.lobby_code, (SELECT b.lobby_code FROM beats b WHERE b.run_id = rc.run_id ORDER BY b.beat_no LIMIT 1)) AS lobby_code
         ) cl ON TRUE
   WHERE rc.run_id >= lo AND rc.run_id < hi
   GROUP BY rc.run_id, tr.start_date, tr.zone_code, tr.div_code, cl.lobby_code, mb.lobby_code IS NOT NULL;

  PERFORM hht_fill_manning_day(ARRAY(
    SELECT DISTINCT k FROM (
      SELECT unnest(COALESCE(keys, '{}')) AS k
      UNION ALL
      SELECT (start_date, div_code)::hht_day_division FROM rollup_run_manning WHERE run_id >= lo AND run_id < hi
    ) u));
END
$$;

SELECT hht_fill_manning_day(ARRAY(SELECT DISTINCT (start_date, div_code)::hht_day_division FROM rollup_run_manning));

-- 2. TDR Summary for one train (the call its page makes from a train link) filtered rollup_tdrs by train after
--    reading every run of the range: an index by train and date reads that train's rows only.
CREATE INDEX rollup_tdrs_train ON rollup_tdrs (train_no, start_date);

GRANT SELECT ON rollup_manning_day TO hht_report;
