-- unmanned-report-history {start_date, end_date}: every unmanned coach-day in the range, with how many of the
-- train's runs in the range left that coach unmanned.
WITH runs AS (
  SELECT tr.run_id, tr.train_no, tr.start_date, tr.div_code
    FROM train_runs tr
   WHERE tr.start_date BETWEEN :start_date::date AND :end_date::date
     AND (:zone::text IS NULL OR tr.zone_code = :zone)
     AND (:division::text IS NULL OR tr.div_code = :division)
     AND (:trainNo::text IS NULL OR tr.train_no = :trainNo)
     AND {{scope}}
), manned AS (
  SELECT DISTINCT b.run_id, bc.coach_id
    FROM beats b
    JOIN runs r ON r.run_id = b.run_id
    CROSS JOIN LATERAL unnest(b.coaches) AS bc(coach_id)
   WHERE b.device_id IS NOT NULL
), coach_days AS (
  SELECT r.train_no, r.start_date, r.div_code, rc.coach_id, rc.class,
         m.run_id IS NULL AS unmanned
    FROM runs r
    JOIN run_coaches rc ON rc.run_id = r.run_id
    LEFT JOIN manned m ON m.run_id = rc.run_id AND m.coach_id = rc.coach_id
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
