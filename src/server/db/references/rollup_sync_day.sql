-- Sync delay per IST event date and division (lobby_code NULL) and per lobby, from the checking events: sums, the
-- distinct HHTs, the per-run rows (run, lobby, TTE, HHT) and the distinct TTEs.
SELECT ist_date(ce.device_time), ce.zone_code, ce.div_code, ce.lobby_code,
       count(*), count(*) FILTER (WHERE ce.sync_time IS NULL), count(ce.sync_time),
       sum(extract(epoch FROM ce.sync_time - ce.device_time) / 60.0), max(extract(epoch FROM ce.sync_time - ce.device_time) / 60.0),
       count(*) FILTER (WHERE ce.sync_time - ce.device_time > interval '30 minutes'),
       count(DISTINCT ce.device_id), count(DISTINCT (ce.run_id, ce.lobby_code, ce.tte_id, ce.device_id)), count(DISTINCT ce.tte_id)
  FROM checking_events ce
  JOIN train_runs tr ON tr.run_id = ce.run_id
 GROUP BY GROUPING SETS ((1, ce.zone_code, ce.div_code, ce.lobby_code), (1, ce.zone_code, ce.div_code))
