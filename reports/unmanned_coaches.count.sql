-- The number of rows UnmannedReport lists: the unmanned coaches of the date's runs, read from the coach manning
-- rollup (coaches per run and manned, kept by the database; the same "manned" as run_coach_manning).
SELECT COALESCE(sum(tr.coaches), 0)::int AS total
  FROM rollup_coach_manning tr
 WHERE tr.start_date = :startDate::date
   AND NOT tr.manned
   AND (:zone::text IS NULL OR tr.zone_code = :zone)
   AND (:division::text IS NULL OR tr.div_code = :division)
   AND (:trainNo::text IS NULL OR EXISTS (SELECT 1 FROM train_runs r WHERE r.run_id = tr.run_id AND r.train_no = :trainNo))
   AND {{scope}}
