-- coachManningSummary: reserved coaches manned with an HHT per zone/division and run date over a range.
-- One row per division and day so that each row drills down to that day's Train_Manned_with_HHT.
WITH runs AS (
  SELECT tr.run_id, tr.start_date, tr.zone_code, tr.div_code
    FROM train_runs tr
   WHERE tr.start_date BETWEEN :start_date::date AND :end_date::date
     AND (:zone::text IS NULL OR tr.zone_code = :zone)
     AND (:division::text IS NULL OR tr.div_code = :division)
     AND {{scope}}
), manned AS (
  SELECT DISTINCT b.run_id, bc.coach_id
    FROM beats b
    JOIN runs r ON r.run_id = b.run_id
    CROSS JOIN LATERAL unnest(b.coaches) AS bc(coach_id)
   WHERE b.device_id IS NOT NULL
)
SELECT r.zone_code AS zone,
       r.div_code AS division,
       r.start_date AS run_date,
       count(DISTINCT r.run_id)::int AS train_runs,
       count(*)::int AS coaches,
       count(m.run_id)::int AS manned,
       (count(*) - count(m.run_id))::int AS unmanned,
       round(100.0 * count(m.run_id) / count(*), 1) AS manned_pct
  FROM runs r
  JOIN run_coaches rc ON rc.run_id = r.run_id
  LEFT JOIN manned m ON m.run_id = rc.run_id AND m.coach_id = rc.coach_id
 GROUP BY r.zone_code, r.div_code, r.start_date
 ORDER BY r.start_date DESC, r.zone_code, r.div_code
