-- SyncDelayDateWise {srcDate}: per IST date (the 7 days ending srcDate), zone and division: events, HHTs,
-- pending records, average and maximum sync delay, events that took over 30 minutes to arrive.
SELECT ist_date(ce.device_time) AS event_date,
       ce.zone_code AS zone,
       ce.div_code AS division,
       count(*)::int AS events,
       count(DISTINCT ce.device_id)::int AS hhts,
       count(*) FILTER (WHERE ce.sync_time IS NULL)::int AS pending_records,
       round(avg(extract(epoch FROM ce.sync_time - ce.device_time) / 60.0), 1) AS avg_delay_min,
       round(max(extract(epoch FROM ce.sync_time - ce.device_time) / 60.0), 1) AS max_delay_min,
       count(*) FILTER (WHERE ce.sync_time - ce.device_time > interval '30 minutes')::int AS delayed_over_30
  FROM checking_events ce
 WHERE ce.device_time >= (:srcDate::date - 6)::timestamp AT TIME ZONE 'Asia/Kolkata'
   AND ce.device_time < (:srcDate::date + 1)::timestamp AT TIME ZONE 'Asia/Kolkata'
   AND {{scope}}
 GROUP BY ist_date(ce.device_time), ce.zone_code, ce.div_code
 ORDER BY event_date DESC, zone, division
