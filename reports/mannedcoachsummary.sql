-- coachManningSummary: reserved coaches manned with an HHT per zone/division and run date over a range
-- (run_coach_manning, migration 007). One row per division and day so that each row drills down to that day's
-- Train_Manned_with_HHT.
SELECT tr.zone_code AS zone,
       tr.div_code AS division,
       tr.start_date AS run_date,
       count(DISTINCT tr.run_id)::int AS train_runs,
       count(*)::int AS coaches,
       count(*) FILTER (WHERE cm.manned)::int AS manned,
       count(*) FILTER (WHERE NOT cm.manned)::int AS unmanned,
       round(100.0 * count(*) FILTER (WHERE cm.manned) / count(*), 1) AS manned_pct
  FROM train_runs tr
  CROSS JOIN LATERAL run_coach_manning(tr.run_id) cm
 WHERE tr.start_date BETWEEN :start_date::date AND :end_date::date
   AND (:zone::text IS NULL OR tr.zone_code = :zone)
   AND (:division::text IS NULL OR tr.div_code = :division)
   AND {{scope}}
 GROUP BY tr.zone_code, tr.div_code, tr.start_date
 ORDER BY tr.start_date DESC, tr.zone_code, tr.div_code
