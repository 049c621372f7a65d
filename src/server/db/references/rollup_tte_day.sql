-- Active users: per IST event date, lobby and TTE, the HHTs and trains, events, pending, first and last event, last sync.
SELECT ist_date(ce.device_time), ce.zone_code, ce.div_code, ce.lobby_code, ce.tte_id,
       string_agg(DISTINCT ce.device_id, ', '), string_agg(DISTINCT tr.train_no, ', '),
       count(*), count(*) FILTER (WHERE ce.sync_time IS NULL), min(ce.device_time), max(ce.device_time), max(ce.sync_time)
  FROM checking_events ce
  JOIN train_runs tr ON tr.run_id = ce.run_id
 GROUP BY 1, ce.zone_code, ce.div_code, ce.lobby_code, ce.tte_id
