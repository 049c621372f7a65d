-- trainMannedWithHht: per train run of the date, reserved coaches vs coaches manned with an HHT.
-- A coach is manned when it is in coaches[] of a beat of the run whose device_id is not null.
WITH runs AS (
  SELECT tr.run_id, tr.train_no, tr.start_date, tr.zone_code, tr.div_code
    FROM train_runs tr
   WHERE tr.start_date = :startDate::date
     AND (:zone::text IS NULL OR tr.zone_code = :zone)
     AND (:division::text IS NULL OR tr.div_code = :division)
     AND {{scope}}
), reserved AS (
  SELECT rc.run_id, count(*)::int AS reserved_coaches
    FROM run_coaches rc
    JOIN runs r ON r.run_id = rc.run_id
   GROUP BY rc.run_id
), manned AS (
  SELECT b.run_id,
         count(DISTINCT bc.coach_id)::int AS manned_coaches,
         count(DISTINCT b.device_id)::int AS hhts_used,
         count(DISTINCT b.tte_id)::int AS ttes
    FROM beats b
    JOIN runs r ON r.run_id = b.run_id
    CROSS JOIN LATERAL unnest(b.coaches) AS bc(coach_id)
    JOIN run_coaches rc ON rc.run_id = b.run_id AND rc.coach_id = bc.coach_id
   WHERE b.device_id IS NOT NULL
   GROUP BY b.run_id
)
SELECT r.train_no,
       t.name AS train_name,
       r.start_date,
       r.zone_code AS zone,
       r.div_code AS division,
       COALESCE(rs.reserved_coaches, 0) AS reserved_coaches,
       COALESCE(m.manned_coaches, 0) AS manned_coaches,
       COALESCE(rs.reserved_coaches, 0) - COALESCE(m.manned_coaches, 0) AS unmanned_coaches,
       COALESCE(m.hhts_used, 0) AS hhts_used,
       COALESCE(m.ttes, 0) AS ttes,
       round(100.0 * COALESCE(m.manned_coaches, 0) / NULLIF(rs.reserved_coaches, 0), 1) AS manned_pct
  FROM runs r
  JOIN trains t ON t.train_no = r.train_no
  LEFT JOIN reserved rs ON rs.run_id = r.run_id
  LEFT JOIN manned m ON m.run_id = r.run_id
 ORDER BY r.div_code, r.train_no
