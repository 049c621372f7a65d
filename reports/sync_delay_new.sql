-- syncDelaySummary {srcDate}: per train run, TTE and HHT, the checking events of the date (IST device time):
-- last event on the device, last arrival at the server, delay between them and records still pending.
-- Reads the sync rollup (migration 014: events per IST date, run, TTE and HHT), not the raw events.
SELECT ce.train_no,
       ce.start_date,
       ce.div_code AS division,
       ce.lobby_code AS lobby,
       ce.tte_id,
       te.name AS tte_name,
       ce.device_id AS hht_id,
       sum(ce.events)::int AS events,
       sum(ce.pending)::int AS pending_records,
       max(ce.last_event_at) AS last_event_at,
       max(ce.last_sync_at) AS last_sync_at,
       round(sum(ce.delay_min_sum) / NULLIF(sum(ce.synced), 0), 1) AS avg_delay_min,
       round(max(ce.max_delay_min), 1) AS max_delay_min
  FROM rollup_sync ce
  LEFT JOIN ttes te ON te.tte_id = ce.tte_id
 WHERE ce.event_date = :srcDate::date
   AND {{scope}}
 GROUP BY ce.train_no, ce.start_date, ce.div_code, ce.lobby_code, ce.tte_id, te.name, ce.device_id
 ORDER BY pending_records DESC, max_delay_min DESC NULLS LAST, ce.train_no
