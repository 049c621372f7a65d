-- rollup_run_passengers: passengers not cancelled per run, class and lobby, with their marks (dashboard counts, 7-day
-- chart, class share), for the runs lo <= run_id < hi.
CREATE OR REPLACE FUNCTION hht_fill_run_passengers(lo bigint, hi bigint) RETURNS void LANGUAGE sql AS $$
  DELETE FROM rollup_run_passengers WHERE run_id >= lo AND run_id < hi;
  INSERT INTO rollup_run_passengers
  SELECT p.run_id, tr.start_date, tr.train_no, tr.zone_code, tr.div_code, p.lobby_code, p.class,
         count(*), count(*) FILTER (WHERE p.mark = 'O'), count(*) FILTER (WHERE p.mark = 'NT'),
         count(*) FILTER (WHERE p.mark IS NULL)
    FROM passengers p
    JOIN train_runs tr ON tr.run_id = p.run_id
   WHERE p.run_id >= lo AND p.run_id < hi AND p.current_status <> 'CAN'
   GROUP BY p.run_id, tr.start_date, tr.train_no, tr.zone_code, tr.div_code, p.lobby_code, p.class;
$$;
