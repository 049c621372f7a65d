-- The manning rollups of the runs lo <= run_id < hi (rollup_run_manning, rollup_coach_manning), then the day rows
-- (rollup_manning_day) of the (run date, division) pairs they fed before and after.
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
