-- rollup_manning_day: Coach Manning Summary's sums per run date, zone and division, redone for the given
-- (run date, division) pairs from rollup_run_manning.
CREATE OR REPLACE FUNCTION hht_fill_manning_day(keys hht_day_division[]) RETURNS void LANGUAGE plpgsql AS $$
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
