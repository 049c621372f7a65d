-- unmannedMannedAll: every reserved coach of the run(s) with its manning status, TTEs and HHTs
-- (run_coach_manning, migration 007).
SELECT tr.train_no,
       t.name AS train_name,
       tr.start_date,
       tr.div_code AS division,
       cm.coach_id AS coach,
       cm.class,
       cm.capacity,
       CASE WHEN cm.manned THEN 'MANNED' ELSE 'UNMANNED' END AS status,
       array_to_string(cm.tte_ids, ', ') AS ttes,
       array_to_string(cm.hht_ids, ', ') AS hht_ids
  FROM train_runs tr
  JOIN trains t ON t.train_no = tr.train_no
  CROSS JOIN LATERAL run_coach_manning(tr.run_id) cm
 WHERE tr.start_date = :startDate::date
   AND (:trainNo::text IS NULL OR tr.train_no = :trainNo)
   AND (:zone::text IS NULL OR tr.zone_code = :zone)
   AND (:division::text IS NULL OR tr.div_code = :division)
   AND {{scope}}
 ORDER BY tr.div_code, tr.train_no, cm.seq
