-- The number of rows unmanned-report-history lists: one per unmanned coach-day of the range, read from the coach
-- manning rollup (coaches per run and manned, kept by the database; the same "manned" as run_coach_manning) instead
-- of working out every coach of every run.
SELECT COALESCE(sum(tr.coaches), 0)::int AS total
  FROM rollup_coach_manning tr
 WHERE tr.start_date BETWEEN :start_date::date AND :end_date::date
   AND NOT tr.manned
   AND (:zone::text IS NULL OR tr.zone_code = :zone)
   AND (:division::text IS NULL OR tr.div_code = :division)
   AND (:trainNo::text IS NULL OR EXISTS (SELECT 1 FROM train_runs r WHERE r.run_id = tr.run_id AND r.train_no = :trainNo))
   AND {{scope}}
