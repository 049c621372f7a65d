-- UnmannedReport: reserved coaches of the run(s) that no TTE worked with an HHT. What "manned" means is defined once,
-- in run_coach_manning (migration 007), shared with the other tabs and Train_Manned_with_HHT.
SELECT tr.train_no,
       t.name AS train_name,
       tr.start_date,
       tr.div_code AS division,
       cm.coach_id AS coach,
       cm.class,
       cm.capacity,
       (SELECT count(*)::int FROM passengers p
         WHERE p.run_id = tr.run_id AND p.coach_id = cm.coach_id AND p.current_status <> 'CAN') AS passengers,
       'UNMANNED' AS status
  FROM train_runs tr
  JOIN trains t ON t.train_no = tr.train_no
  CROSS JOIN LATERAL run_coach_manning(tr.run_id) cm
 WHERE tr.start_date = :startDate::date
   AND (:trainNo::text IS NULL OR tr.train_no = :trainNo)
   AND (:zone::text IS NULL OR tr.zone_code = :zone)
   AND (:division::text IS NULL OR tr.div_code = :division)
   AND {{scope}}
   AND NOT cm.manned
 ORDER BY tr.div_code, tr.train_no, cm.seq
