-- key: run_id
-- Per run, duty date (IST date of the sign-on, else the run's start date), lobby and TTE: beats, coaches manned with
-- an HHT (distinct), the HHTs, first sign-on, last sign-off.
WITH bt AS (
  SELECT b.*, tr.start_date, tr.train_no, COALESCE(ist_date(b.sign_on_at), tr.start_date) AS duty_date
    FROM beats b JOIN train_runs tr ON tr.run_id = b.run_id
   WHERE b.run_id >= $1 AND b.run_id < $2
)
SELECT bt.run_id, bt.start_date, bt.duty_date, bt.train_no, bt.zone_code, bt.div_code, bt.lobby_code, bt.tte_id, count(*),
       (SELECT count(DISTINCT c.coach_id)::int FROM bt b2 CROSS JOIN LATERAL unnest(b2.coaches) AS c(coach_id)
         WHERE b2.run_id = bt.run_id AND b2.device_id IS NOT NULL AND b2.tte_id = bt.tte_id AND b2.zone_code = bt.zone_code
           AND b2.div_code = bt.div_code AND b2.lobby_code = bt.lobby_code AND b2.duty_date = bt.duty_date),
       COALESCE(array_agg(DISTINCT bt.device_id ORDER BY bt.device_id) FILTER (WHERE bt.device_id IS NOT NULL), '{}'),
       min(bt.sign_on_at), max(bt.sign_off_at)
  FROM bt
 GROUP BY bt.run_id, bt.start_date, bt.duty_date, bt.train_no, bt.zone_code, bt.div_code, bt.lobby_code, bt.tte_id
