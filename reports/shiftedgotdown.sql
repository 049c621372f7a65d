-- Passengers shifted to another berth or got down early on one train run (HHT events), with the TTE who recorded it.
SELECT ce.event_type,
       b.beat_no,
       p.pnr,
       mask_name(p.name) AS psgn_name,
       p.class,
       ce.coach_id AS old_coach,
       ce.berth_no AS old_berth,
       ce.new_coach_id AS new_coach,
       ce.new_berth_no AS new_berth,
       ce.station_code AS station,
       ce.device_time AS event_at,
       ce.sync_time AS synced_at,
       ce.tte_id,
       t.name AS tte_name
  FROM train_runs tr
  JOIN checking_events ce ON ce.run_id = tr.run_id AND ce.event_type IN ('SHIFTED', 'GOT_DOWN')
  JOIN beats b ON b.beat_id = ce.beat_id
  LEFT JOIN passengers p ON p.psgn_id = ce.psgn_id
  LEFT JOIN ttes t ON t.tte_id = ce.tte_id
 WHERE tr.train_no = :trainNo
   AND tr.start_date = :startDate::date
   AND (:eventType::text IS NULL OR ce.event_type = :eventType)
   AND (:coach::text IS NULL OR ce.coach_id = :coach OR ce.new_coach_id = :coach)
   AND {{scope}}
 ORDER BY ce.device_time, ce.event_id
