-- key: run_id
-- Passengers not cancelled per run and coach.
SELECT p.run_id, p.coach_id, count(*)::int
  FROM passengers p
 WHERE p.current_status <> 'CAN' AND p.coach_id IS NOT NULL AND p.run_id >= $1 AND p.run_id < $2
 GROUP BY p.run_id, p.coach_id
