-- Active_Users: TTEs whose HHT recorded checking events on the date (IST device time).
-- Reads the sync rollup (migration 014: events per IST date, run, TTE and HHT), not the raw events.
SELECT ce.lobby_code AS lobby,
       ce.tte_id,
       te.name AS tte_name,
       te.designation,
       string_agg(DISTINCT ce.device_id, ', ') AS hht_ids,
       string_agg(DISTINCT ce.train_no, ', ') AS trains,
       sum(ce.events)::int AS events,
       sum(ce.pending)::int AS pending,
       min(ce.first_event_at) AS first_event_at,
       max(ce.last_event_at) AS last_event_at,
       max(ce.last_sync_at) AS last_sync_at,
       :srcDate::date - 3 AS from_date,
       :srcDate::date AS to_date
  FROM rollup_sync ce
  JOIN ttes te ON te.tte_id = ce.tte_id
 WHERE ce.event_date = :srcDate::date
   AND (:zone::text IS NULL OR ce.zone_code = :zone)
   AND (:division::text IS NULL OR ce.div_code = :division)
   AND (:lobby::text IS NULL OR ce.lobby_code = :lobby)
   AND {{scope}}
 GROUP BY ce.lobby_code, ce.tte_id, te.name, te.designation
 ORDER BY ce.lobby_code, ce.tte_id
