-- rollup_tte_duty: per run, duty date (the IST date of the sign-on, or the run's start date without one), zone,
-- division, lobby and TTE: beats, coaches manned with an HHT (distinct), the HHTs, first sign-on, last sign-off; for
-- the runs lo <= run_id < hi.
CREATE OR REPLACE FUNCTION hht_fill_tte_duty_runs(lo bigint, hi bigint) RETURNS void LANGUAGE sql AS $$
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
