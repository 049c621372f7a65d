-- The number of rows allotmentReport lists: the date's allotments (each has its passenger), counted without the
-- passengers.
SELECT count(*)::int AS total
  FROM reallocations r
  JOIN train_runs tr ON tr.run_id = r.run_id
 WHERE tr.start_date = :startDate::date
   AND r.run_id >= (:startDate::date - DATE '2000-01-01')::bigint * 100000
   AND r.run_id < (:startDate::date - DATE '2000-01-01' + 1)::bigint * 100000
   AND (:trainNo::text IS NULL OR tr.train_no = :trainNo)
   AND (:zone::text IS NULL OR r.zone_code = :zone)
   AND (:division::text IS NULL OR r.div_code = :division)
   AND {{scope}}
