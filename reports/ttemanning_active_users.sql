-- Active_Users: TTEs whose HHT recorded checking events on the date (IST device time).
-- Reads the TTE day rollup (migration 018: one row per date, lobby and TTE, from the sync rollup), in its index
-- order: the view is server-paged, so a page reads its 50 rows and stops however many TTEs worked that day.
SELECT ce.lobby_code AS lobby,
       ce.tte_id,
       te.name AS tte_name,
       te.designation,
       ce.hht_ids,
       ce.trains,
       ce.events,
       ce.pending,
       ce.first_event_at,
       ce.last_event_at,
       ce.last_sync_at,
       :srcDate::date - 3 AS from_date,
       :srcDate::date AS to_date
  FROM rollup_tte_day ce
  LEFT JOIN ttes te ON te.tte_id = ce.tte_id
 WHERE ce.event_date = :srcDate::date
   AND (:zone::text IS NULL OR ce.zone_code = :zone)
   AND (:division::text IS NULL OR ce.div_code = :division)
   AND (:lobby::text IS NULL OR ce.lobby_code = :lobby)
   AND {{scope}}
 ORDER BY ce.lobby_code, ce.tte_id
