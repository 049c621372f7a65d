-- syncDelaySummary {srcDate}: per train run, TTE and HHT, the checking events of the date (IST device time):
-- last event on the device, last arrival at the server, delay between them and records still pending.
-- Reads the sync rollup (migration 014), whose rows are already one per date, run, TTE and HHT (the division fixes
-- the zone), so nothing is regrouped: a page of the answer (server paging, migration 018's index in this order)
-- reads its 50 rows and stops, however many runs the day has.
SELECT ce.train_no,
       ce.start_date,
       ce.div_code AS division,
       ce.lobby_code AS lobby,
       ce.tte_id,
       te.name AS tte_name,
       ce.device_id AS hht_id,
       ce.events,
       ce.pending AS pending_records,
       ce.last_event_at,
       ce.last_sync_at,
       round(ce.delay_min_sum / NULLIF(ce.synced, 0), 1) AS avg_delay_min,
       round(ce.max_delay_min, 1) AS max_delay_min
  FROM rollup_sync ce
  LEFT JOIN ttes te ON te.tte_id = ce.tte_id
 WHERE ce.event_date = :srcDate::date
   AND {{scope}}
 ORDER BY ce.pending DESC, round(ce.max_delay_min, 1) DESC NULLS LAST, ce.train_no
