-- Active_Users: TTEs whose HHT recorded checking events on the date (IST device time).
SELECT ce.lobby_code AS lobby,
       ce.tte_id,
       te.name AS tte_name,
       te.designation,
       string_agg(DISTINCT ce.device_id, ', ') AS hht_ids,
       string_agg(DISTINCT tr.train_no, ', ') AS trains,
       count(*)::int AS events,
       count(*) FILTER (WHERE ce.sync_time IS NULL)::int AS pending,
       min(ce.device_time) AS first_event_at,
       max(ce.device_time) AS last_event_at,
       max(ce.sync_time) AS last_sync_at,
       :srcDate::date - 3 AS from_date,
       :srcDate::date AS to_date
  FROM checking_events ce
  JOIN train_runs tr ON tr.run_id = ce.run_id
  JOIN ttes te ON te.tte_id = ce.tte_id
 WHERE ce.device_time >= :srcDate::date::timestamp AT TIME ZONE 'Asia/Kolkata'
   AND ce.device_time < (:srcDate::date + 1)::timestamp AT TIME ZONE 'Asia/Kolkata'
   AND (:zone::text IS NULL OR ce.zone_code = :zone)
   AND (:division::text IS NULL OR ce.div_code = :division)
   AND (:lobby::text IS NULL OR ce.lobby_code = :lobby)
   AND {{scope}}
 GROUP BY ce.lobby_code, ce.tte_id, te.name, te.designation
 ORDER BY ce.lobby_code, ce.tte_id
