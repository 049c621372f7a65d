-- onboardSummary: on-board staff per division and staff type over run dates in the range.
-- One pass over the range's postings (a national week is 300,000), found by the dates' run_id range (run_id = day *
-- 100000 + train number) with no join to the runs, hashed twice at once (grouping sets): per group and run, and per
-- group and staff member; each group then counts its rows of either set. count(DISTINCT ...) sorted every posting,
-- spilling to disk. run_id and staff_id are never NULL, so a NULL one marks the other set's rows.
SELECT x.zone_code AS zone,
       x.div_code AS division,
       x.staff_type,
       (count(*) FILTER (WHERE x.run_id IS NOT NULL))::int AS train_runs,
       (count(*) FILTER (WHERE x.staff_id IS NOT NULL))::int AS staff,
       (sum(x.postings) FILTER (WHERE x.run_id IS NOT NULL))::int AS postings,
       round(sum(x.coaches) FILTER (WHERE x.run_id IS NOT NULL) / sum(x.postings) FILTER (WHERE x.run_id IS NOT NULL), 1)
         AS avg_coaches
  FROM (SELECT os.zone_code, os.div_code, os.staff_type, os.run_id, os.staff_id,
               count(*) AS postings, sum(cardinality(os.coaches)) AS coaches
          FROM onboard_staff os
         WHERE os.run_id >= (:start_date::date - DATE '2000-01-01')::bigint * 100000
           AND os.run_id < (:end_date::date - DATE '2000-01-01' + 1)::bigint * 100000
           AND (:zone::text IS NULL OR os.zone_code = :zone)
           AND (:division::text IS NULL OR os.div_code = :division)
           AND (:staffType::text IS NULL OR os.staff_type = :staffType)
           AND {{scope}}
         GROUP BY GROUPING SETS ((os.zone_code, os.div_code, os.staff_type, os.run_id),
                                 (os.zone_code, os.div_code, os.staff_type, os.staff_id))) x
 GROUP BY x.zone_code, x.div_code, x.staff_type
 ORDER BY x.zone_code, x.div_code, x.staff_type
