-- Staff on board one train run (TTEs, coach attendants, catering, RPF, ...) with the coaches they cover;
-- mobile numbers masked.
SELECT os.staff_type,
       os.staff_id,
       os.name AS staff_name,
       mask_mobile(os.mobile_no) AS mobile_no,
       array_to_string(os.coaches, ', ') AS coaches,
       cardinality(os.coaches) AS coach_count
  FROM train_runs tr
  JOIN onboard_staff os ON os.run_id = tr.run_id
 WHERE tr.train_no = :trainNo
   AND tr.start_date = :startDate::date
   AND (:staffType::text IS NULL OR os.staff_type = :staffType)
   AND {{scope}}
 ORDER BY os.staff_type, os.staff_id
