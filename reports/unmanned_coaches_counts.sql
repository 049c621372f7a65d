-- UnManned_Manned_test: per train run, reserved coaches counted manned vs unmanned (run_coach_manning, migration 007).
SELECT tr.train_no,
       t.name AS train_name,
       tr.start_date,
       tr.div_code AS division,
       count(*)::int AS coaches,
       count(*) FILTER (WHERE cm.manned)::int AS manned,
       count(*) FILTER (WHERE NOT cm.manned)::int AS unmanned,
       round(100.0 * count(*) FILTER (WHERE cm.manned) / count(*), 1) AS manned_pct
  FROM train_runs tr
  JOIN trains t ON t.train_no = tr.train_no
  CROSS JOIN LATERAL run_coach_manning(tr.run_id) cm
 WHERE tr.start_date = :startDate::date
   AND (:trainNo::text IS NULL OR tr.train_no = :trainNo)
   AND (:zone::text IS NULL OR tr.zone_code = :zone)
   AND (:division::text IS NULL OR tr.div_code = :division)
   AND {{scope}}
 GROUP BY tr.train_no, t.name, tr.start_date, tr.div_code
 ORDER BY tr.div_code, tr.train_no
