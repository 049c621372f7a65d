-- The TTE duty rollups of the runs lo <= run_id < hi: the per-run rows (hht_fill_tte_duty_runs), then the per-lobby
-- counts (rollup_tte_duty_lobby) of the (duty date, lobby) pairs those runs fed before and after.
CREATE OR REPLACE FUNCTION hht_fill_tte_duty(lo bigint, hi bigint) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  keys hht_day_lobby[];
BEGIN
  SELECT array_agg(DISTINCT (duty_date, lobby_code)::hht_day_lobby) INTO keys FROM rollup_tte_duty WHERE run_id >= lo AND run_id < hi;
  PERFORM hht_fill_tte_duty_runs(lo, hi);
  PERFORM hht_fill_tte_duty_lobby(ARRAY(
    SELECT DISTINCT k FROM (
      SELECT unnest(COALESCE(keys, '{}')) AS k
      UNION ALL
      SELECT (duty_date, lobby_code)::hht_day_lobby FROM rollup_tte_duty WHERE run_id >= lo AND run_id < hi
    ) u));
END
$$;
