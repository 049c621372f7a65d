-- unmanned-report-history {start_date, end_date}: every unmanned coach-day in the range, with how many of the
-- train's runs in the range left that coach unmanned (run_coach_manning, migration 007).
WITH coach_days AS (
  SELECT tr.train_no, tr.start_date, tr.div_code, cm.coach_id, cm.class,
         NOT cm.manned AS unmanned
    FROM train_runs tr
    CROSS JOIN LATERAL run_coach_manning(tr.run_id) cm
   WHERE tr.start_date BETWEEN :start_date::date AND :end_date::date
     AND (:zone::text IS NULL OR tr.zone_code = :zone)
     AND (:division::text IS NULL OR tr.div_code = :division)
     AND (:trainNo::text IS NULL OR tr.train_no = :trainNo)
     AND {{scope}}
), hist AS (
  SELECT cd.*,
         count(*) OVER w AS runs_in_range,
         count(*) FILTER (WHERE cd.unmanned) OVER w AS days_unmanned
    FROM coach_days cd
  WINDOW w AS (PARTITION BY cd.train_no, cd.coach_id)
)
SELECT h.start_date AS run_date,
       h.train_no,
       t.name AS train_name,
       h.div_code AS division,
       h.coach_id AS coach,
       h.class,
       h.days_unmanned::int AS days_unmanned,
       h.runs_in_range::int AS runs_in_range,
       round(100.0 * h.days_unmanned / h.runs_in_range, 1) AS unmanned_pct
  FROM hist h
  JOIN trains t ON t.train_no = h.train_no
 WHERE h.unmanned
 ORDER BY h.days_unmanned DESC, h.train_no, h.coach_id, h.start_date
