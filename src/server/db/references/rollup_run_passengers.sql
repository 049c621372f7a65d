-- key: run_id
-- Passengers not cancelled per run, class and lobby, with their marks.
SELECT p.run_id, tr.start_date, tr.train_no, tr.zone_code, tr.div_code, p.lobby_code, p.class,
       count(*), count(*) FILTER (WHERE p.mark = 'O'), count(*) FILTER (WHERE p.mark = 'NT'), count(*) FILTER (WHERE p.mark IS NULL)
  FROM passengers p
  JOIN train_runs tr ON tr.run_id = p.run_id
 WHERE p.current_status <> 'CAN' AND p.run_id >= $1 AND p.run_id < $2
 GROUP BY p.run_id, tr.start_date, tr.train_no, tr.zone_code, tr.div_code, p.lobby_code, p.class
