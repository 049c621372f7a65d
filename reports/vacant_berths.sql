SELECT vb.coach_id AS coach,
       vb.berth_no,
       vb.berth_type,
       vb.class,
       vb.from_station AS vacant_from,
       vb.to_station AS vacant_to,
       vb.reason,
       CASE WHEN vb.released_to_prs THEN 'YES' ELSE 'NO' END AS released_to_prs,
       vb.released_at,
       vb.released_by,
       CASE WHEN vb.rebooked THEN 'YES' ELSE 'NO' END AS rebooked
  FROM vacant_berths vb
  JOIN train_runs tr ON tr.run_id = vb.run_id
 WHERE tr.train_no = :trainNo
   AND tr.start_date = :startDate::date
   AND (:cls::text IS NULL OR vb.class = :cls)
   AND (:coach::text IS NULL OR vb.coach_id = :coach)
   AND (:reason::text IS NULL OR vb.reason = :reason)
   AND {{scope}}
 ORDER BY vb.coach_id, vb.berth_no
