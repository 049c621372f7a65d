-- Vacant berths the TTE released to PRS (no RAC/WL left to allot) on one train run, and whether PRS resold them.
SELECT vb.coach_id AS coach,
       vb.berth_no,
       vb.berth_type,
       vb.class,
       vb.from_station AS released_from,
       vb.to_station AS released_to,
       vb.reason,
       vb.released_at,
       vb.released_by,
       t.name AS released_by_name,
       CASE WHEN vb.rebooked THEN 'YES' ELSE 'NO' END AS rebooked
  FROM train_runs tr
  JOIN vacant_berths vb ON vb.run_id = tr.run_id AND vb.released_to_prs
  LEFT JOIN ttes t ON t.tte_id = vb.released_by
 WHERE tr.train_no = :trainNo
   AND tr.start_date = :startDate::date
   AND (:cls::text IS NULL OR vb.class = :cls)
   AND (:coach::text IS NULL OR vb.coach_id = :coach)
   AND {{scope}}
 ORDER BY vb.released_at, vb.coach_id, vb.berth_no
