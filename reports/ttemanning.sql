-- TteManningReport: TTEs who signed on for a beat on the date (IST; beats without sign-on count on the run's
-- start date), with trains worked, coaches manned with an HHT and the HHTs used. Runs that started up to 3 days
-- earlier are considered so that later beats of long journeys are included.
WITH bt AS (
  SELECT b.beat_id, b.run_id, b.tte_id, b.device_id, b.lobby_code, b.coaches, b.sign_on_at, b.sign_off_at,
         tr.train_no
    FROM beats b
    JOIN train_runs tr ON tr.run_id = b.run_id
   WHERE tr.start_date BETWEEN :srcDate::date - 3 AND :srcDate::date
     -- The same runs by their ids (a run date is the run_id range [day * 100000, (day + 1) * 100000)), so only
     -- those 4 days' beats are read, however many days are kept.
     AND b.run_id >= (:srcDate::date - 3 - date '2000-01-01')::bigint * 100000
     AND b.run_id < (:srcDate::date + 1 - date '2000-01-01')::bigint * 100000
     AND COALESCE(ist_date(b.sign_on_at), tr.start_date) = :srcDate::date
     AND (:zone::text IS NULL OR b.zone_code = :zone)
     AND (:division::text IS NULL OR b.div_code = :division)
     AND (:lobby::text IS NULL OR b.lobby_code = :lobby)
     AND {{scope}}
), mc AS MATERIALIZED (
  -- Computed once: estimated at a row or two (the duty-date filter), an inlined mc was re-run for every TTE.
  SELECT bt.tte_id, count(DISTINCT (bt.run_id, c.coach_id))::int AS coaches_manned
    FROM bt
    CROSS JOIN LATERAL unnest(bt.coaches) AS c(coach_id)
   WHERE bt.device_id IS NOT NULL
   GROUP BY bt.tte_id
)
SELECT bt.lobby_code AS lobby,
       bt.tte_id,
       te.name AS tte_name,
       te.designation,
       mask_mobile(te.mobile_no) AS mobile,
       count(DISTINCT bt.run_id)::int AS trains_worked,
       string_agg(DISTINCT bt.train_no, ', ') AS trains,
       count(*)::int AS beats,
       COALESCE(max(mc.coaches_manned), 0) AS coaches_manned,
       string_agg(DISTINCT bt.device_id, ', ') AS hht_ids,
       min(bt.sign_on_at) AS first_sign_on,
       max(bt.sign_off_at) AS last_sign_off,
       :srcDate::date - 3 AS from_date,
       :srcDate::date AS to_date
  FROM bt
  JOIN ttes te ON te.tte_id = bt.tte_id
  LEFT JOIN mc ON mc.tte_id = bt.tte_id
 GROUP BY bt.lobby_code, bt.tte_id, te.name, te.designation, te.mobile_no
 ORDER BY bt.lobby_code, bt.tte_id
