-- syncDelaySummary {srcDate}: per train run, TTE and HHT, the checking events of the date (IST device time):
-- last event on the device, last arrival at the server, delay between them and records still pending.
SELECT tr.train_no,
       tr.start_date,
       ce.div_code AS division,
       ce.lobby_code AS lobby,
       ce.tte_id,
       te.name AS tte_name,
       ce.device_id AS hht_id,
       count(*)::int AS events,
       count(*) FILTER (WHERE ce.sync_time IS NULL)::int AS pending_records,
       max(ce.device_time) AS last_event_at,
       max(ce.sync_time) AS last_sync_at,
       round(avg(extract(epoch FROM ce.sync_time - ce.device_time) / 60.0), 1) AS avg_delay_min,
       round(max(extract(epoch FROM ce.sync_time - ce.device_time) / 60.0), 1) AS max_delay_min
  FROM checking_events ce
  JOIN train_runs tr ON tr.run_id = ce.run_id
  LEFT JOIN ttes te ON te.tte_id = ce.tte_id
 WHERE ce.device_time >= :srcDate::date::timestamp AT TIME ZONE 'Asia/Kolkata'
   AND ce.device_time < (:srcDate::date + 1)::timestamp AT TIME ZONE 'Asia/Kolkata'
   AND {{scope}}
 GROUP BY tr.train_no, tr.start_date, ce.div_code, ce.lobby_code, ce.tte_id, te.name, ce.device_id
 ORDER BY pending_records DESC, max_delay_min DESC NULLS LAST, tr.train_no
