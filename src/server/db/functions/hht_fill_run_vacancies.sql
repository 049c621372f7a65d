-- rollup_run_vacancies: vacant berths per run and lobby (vacant, released to PRS, rebooked) for the runs
-- lo <= run_id < hi.
CREATE OR REPLACE FUNCTION hht_fill_run_vacancies(lo bigint, hi bigint) RETURNS void LANGUAGE sql AS $$
  DELETE FROM rollup_run_vacancies WHERE run_id >= lo AND run_id < hi;
  INSERT INTO rollup_run_vacancies
  SELECT vb.run_id, tr.start_date, tr.train_no, tr.zone_code, tr.div_code, vb.lobby_code, count(*),
         count(*) FILTER (WHERE vb.released_to_prs), count(*) FILTER (WHERE vb.released_to_prs AND vb.rebooked)
    FROM vacant_berths vb
    JOIN train_runs tr ON tr.run_id = vb.run_id
   WHERE vb.run_id >= lo AND vb.run_id < hi
   GROUP BY vb.run_id, tr.start_date, tr.train_no, tr.zone_code, tr.div_code, vb.lobby_code;
$$;
