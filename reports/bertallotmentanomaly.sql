-- AllocationException: berth allotments (reallocations) of the run(s) that break a rule: DOUBLE_ALLOTMENT,
-- ALLOTTED_WITHIN_NT_GRACE, OUT_OF_PRIORITY. The rules and the SQL that works them out from the raw rows are in
-- src/server/db/functions/hht_alloc_anomalies.sql; the database keeps its rows per run (rollup_allot_anomalies, kept
-- current by every write like the other rollups), so a national day's few hundred anomalies are read, not worked
-- out from some 40,000 passengers and their stops at every call.
-- The filters and the user's scope apply to the listed allotment and, for a double allotment of two allotments, to
-- the other one too (both are listed, or neither).
SELECT an.anomaly,
       tr.train_no,
       tr.start_date,
       r.pnr,
       mask_name(p.name) AS passenger,
       p.class,
       r.prev_status,
       r.coach_id AS coach,
       r.berth_no,
       r.from_station,
       r.to_station,
       r.allotted_at,
       r.tte_id,
       an.other_pnr,
       an.detail
  FROM rollup_allot_anomalies an
  JOIN reallocations r ON r.realloc_id = an.realloc_id
  JOIN train_runs tr ON tr.run_id = r.run_id
  CROSS JOIN LATERAL (SELECT p.class, p.name FROM passengers p
                       WHERE p.run_id = r.run_id AND p.psgn_id = r.psgn_id
                         AND p.run_id >= (:startDate::date - DATE '2000-01-01')::bigint * 100000 AND p.run_id < (:startDate::date - DATE '2000-01-01' + 1)::bigint * 100000) p
 WHERE an.run_id >= (:startDate::date - DATE '2000-01-01')::bigint * 100000 AND an.run_id < (:startDate::date - DATE '2000-01-01' + 1)::bigint * 100000
   AND (:trainNo::text IS NULL OR tr.train_no = :trainNo)
   AND (:zone::text IS NULL OR r.zone_code = :zone)
   AND (:division::text IS NULL OR r.div_code = :division)
   AND {{scope}}
   AND (an.other_realloc_id IS NULL OR EXISTS (
         SELECT 1 FROM reallocations r
          WHERE r.realloc_id = an.other_realloc_id
            AND (:zone::text IS NULL OR r.zone_code = :zone)
            AND (:division::text IS NULL OR r.div_code = :division)
            AND {{scope}}))
 ORDER BY tr.train_no, r.coach_id, r.berth_no, r.allotted_at, an.anomaly, an.other_pnr
