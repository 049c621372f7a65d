-- unmannedMannedAll: every reserved coach of the run(s) with its manning status, TTEs and HHTs.
WITH runs AS (
  SELECT tr.run_id, tr.train_no, tr.start_date, tr.zone_code, tr.div_code
    FROM train_runs tr
   WHERE tr.start_date = :startDate::date
     AND (:trainNo::text IS NULL OR tr.train_no = :trainNo)
     AND (:zone::text IS NULL OR tr.zone_code = :zone)
     AND (:division::text IS NULL OR tr.div_code = :division)
     AND {{scope}}
), manning AS (
  SELECT b.run_id,
         bc.coach_id,
         string_agg(DISTINCT b.tte_id, ', ') AS ttes,
         string_agg(DISTINCT b.device_id, ', ') AS hht_ids
    FROM beats b
    JOIN runs r ON r.run_id = b.run_id
    CROSS JOIN LATERAL unnest(b.coaches) AS bc(coach_id)
   WHERE b.device_id IS NOT NULL
   GROUP BY b.run_id, bc.coach_id
), coaches AS (
  SELECT r.run_id, r.train_no, r.start_date, r.zone_code, r.div_code,
         rc.coach_id, rc.seq, rc.class, rc.capacity,
         m.ttes, m.hht_ids,
         CASE WHEN m.coach_id IS NULL THEN 'UNMANNED' ELSE 'MANNED' END AS status
    FROM runs r
    JOIN run_coaches rc ON rc.run_id = r.run_id
    LEFT JOIN manning m ON m.run_id = rc.run_id AND m.coach_id = rc.coach_id
)
SELECT c.train_no,
       t.name AS train_name,
       c.start_date,
       c.div_code AS division,
       c.coach_id AS coach,
       c.class,
       c.capacity,
       c.status,
       c.ttes,
       c.hht_ids
  FROM coaches c
  JOIN trains t ON t.train_no = c.train_no
 ORDER BY c.div_code, c.train_no, c.seq
