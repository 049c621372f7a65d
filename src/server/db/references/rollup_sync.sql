-- key: run_id
-- Checking events per IST event date, run, TTE and HHT.
SELECT ist_date(ce.device_time), ce.run_id, tr.start_date, tr.train_no, ce.zone_code, ce.div_code, ce.lobby_code, ce.tte_id, ce.device_id,
       count(*), count(*) FILTER (WHERE ce.sync_time IS NULL), count(ce.sync_time),
       sum(extract(epoch FROM ce.sync_time - ce.device_time) / 60.0), max(extract(epoch FROM ce.sync_time - ce.device_time) / 60.0),
       count(*) FILTER (WHERE ce.sync_time - ce.device_time > interval '30 minutes'),
       min(ce.device_time), max(ce.device_time), max(ce.sync_time)
  FROM checking_events ce
  JOIN train_runs tr ON tr.run_id = ce.run_id
 WHERE ce.run_id >= $1 AND ce.run_id < $2
 GROUP BY 1, ce.run_id, tr.start_date, tr.train_no, ce.zone_code, ce.div_code, ce.lobby_code, ce.tte_id, ce.device_id
