-- rollup_tte_duty_lobby: TTE Manning's rows per duty date and lobby (its TTEs with a beat of a run that started on
-- the date or up to three days before), redone for the given pairs from rollup_tte_duty.
CREATE OR REPLACE FUNCTION hht_fill_tte_duty_lobby(keys hht_day_lobby[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- One batch at a time per (date, lobby).
  PERFORM hht_lock_buckets(4242023, ARRAY(SELECT u.duty_date::text || '/' || u.lobby_code FROM unnest(keys) u));
  DELETE FROM rollup_tte_duty_lobby l USING unnest(keys) u WHERE l.duty_date = u.duty_date AND l.lobby_code = u.lobby_code;
  INSERT INTO rollup_tte_duty_lobby
  SELECT d.duty_date, d.zone_code, d.div_code, d.lobby_code, count(DISTINCT d.tte_id)
    FROM rollup_tte_duty d
    JOIN (SELECT DISTINCT duty_date, lobby_code FROM unnest(keys)) u ON u.duty_date = d.duty_date AND u.lobby_code = d.lobby_code
   WHERE d.start_date BETWEEN d.duty_date - 3 AND d.duty_date
   GROUP BY d.duty_date, d.zone_code, d.div_code, d.lobby_code;
END
$$;
