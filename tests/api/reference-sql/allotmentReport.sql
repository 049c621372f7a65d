-- The SQL allotmentReport had before it was rewritten for national volumes (kept to compare rows with).
-- allotmentReport: every berth allotment (RAC/WL passenger given a berth on board) of the run(s).
SELECT tr.train_no,
       tr.start_date,
       r.pnr,
       mask_name(p.name) AS passenger,
       p.class,
       r.prev_status,
       p.current_status,
       r.coach_id AS coach,
       r.berth_no,
       r.from_station,
       r.to_station,
       r.allotted_at,
       r.tte_id,
       r.eft_no
  FROM reallocations r
  JOIN train_runs tr ON tr.run_id = r.run_id
  JOIN passengers p ON p.psgn_id = r.psgn_id
 WHERE tr.start_date = :startDate::date
   AND (:trainNo::text IS NULL OR tr.train_no = :trainNo)
   AND (:zone::text IS NULL OR r.zone_code = :zone)
   AND (:division::text IS NULL OR r.div_code = :division)
   AND {{scope}}
 ORDER BY tr.train_no, r.allotted_at, r.coach_id, r.berth_no
