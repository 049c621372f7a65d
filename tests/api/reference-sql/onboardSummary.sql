-- The SQL onboardSummary had before it was rewritten for national volumes (kept to compare rows with).
-- onboardSummary: on-board staff per division and staff type over run dates in the range.
SELECT os.zone_code AS zone,
       os.div_code AS division,
       os.staff_type,
       count(DISTINCT os.run_id)::int AS train_runs,
       count(DISTINCT os.staff_id)::int AS staff,
       count(*)::int AS postings,
       round(avg(cardinality(os.coaches)), 1) AS avg_coaches
  FROM onboard_staff os
  JOIN train_runs tr ON tr.run_id = os.run_id
 WHERE tr.start_date BETWEEN :start_date::date AND :end_date::date
   AND (:zone::text IS NULL OR os.zone_code = :zone)
   AND (:division::text IS NULL OR os.div_code = :division)
   AND (:staffType::text IS NULL OR os.staff_type = :staffType)
   AND {{scope}}
 GROUP BY os.zone_code, os.div_code, os.staff_type
 ORDER BY os.zone_code, os.div_code, os.staff_type
