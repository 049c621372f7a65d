-- key: run_id
-- Vacant berths per run and lobby: vacant, released to PRS, rebooked.
SELECT vb.run_id, tr.start_date, tr.train_no, tr.zone_code, tr.div_code, vb.lobby_code, count(*),
       count(*) FILTER (WHERE vb.released_to_prs), count(*) FILTER (WHERE vb.released_to_prs AND vb.rebooked)
  FROM vacant_berths vb
  JOIN train_runs tr ON tr.run_id = vb.run_id
 WHERE vb.run_id >= $1 AND vb.run_id < $2
 GROUP BY vb.run_id, tr.start_date, tr.train_no, tr.zone_code, tr.div_code, vb.lobby_code
