-- rollup_sync: checking events per IST event date, run, TTE and HHT (counts, pending records, sync delays in exact
-- numeric minutes) for the runs lo <= run_id < hi; then the day rows (rollup_sync_day, rollup_tte_day) of the
-- (date, division) and (date, TTE) pairs those runs fed before and after.
CREATE OR REPLACE FUNCTION hht_fill_sync(lo bigint, hi bigint) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  day_keys hht_day_division[];
  tte_keys hht_day_tte[];
BEGIN
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
END
$$;
