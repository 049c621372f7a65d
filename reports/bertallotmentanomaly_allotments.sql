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
  -- The passenger in the allotment's own run and the date's partition (by psgn_id alone every partition was probed).
  JOIN passengers p ON p.run_id = r.run_id AND p.psgn_id = r.psgn_id
 WHERE tr.start_date = :startDate::date
   AND r.run_id >= (:startDate::date - DATE '2000-01-01')::bigint * 100000
   AND r.run_id < (:startDate::date - DATE '2000-01-01' + 1)::bigint * 100000
   AND p.run_id >= (:startDate::date - DATE '2000-01-01')::bigint * 100000
   AND p.run_id < (:startDate::date - DATE '2000-01-01' + 1)::bigint * 100000
   AND (:trainNo::text IS NULL OR tr.train_no = :trainNo)
   AND (:zone::text IS NULL OR r.zone_code = :zone)
   AND (:division::text IS NULL OR r.div_code = :division)
   AND {{scope}}
 ORDER BY tr.train_no, r.allotted_at, r.coach_id, r.berth_no
