-- RAC/WL passengers given a berth on board (RAC first, then waitlist) on one train run; names masked.
SELECT r.pnr,
       p.psgn_no,
       mask_name(p.name) AS psgn_name,
       p.class,
       r.prev_status,
       r.coach_id AS coach,
       r.berth_no,
       r.from_station,
       r.to_station,
       r.allotted_at,
       r.tte_id,
       t.name AS tte_name,
       r.eft_no
  FROM train_runs tr
  JOIN reallocations r ON r.run_id = tr.run_id
  JOIN passengers p ON p.psgn_id = r.psgn_id
  LEFT JOIN ttes t ON t.tte_id = r.tte_id
 WHERE tr.train_no = :trainNo
   AND tr.start_date = :startDate::date
   AND (:cls::text IS NULL OR p.class = :cls)
   AND {{scope}}
 ORDER BY r.allotted_at, r.coach_id, r.berth_no
