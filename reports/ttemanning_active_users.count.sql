-- The number of rows Active Users gives for a date: the date's TTEs per lobby as the day rollup counts them
-- (migration 020; one rollup_tte_day row per date, lobby and TTE), so a page's count does not grow with the day.
SELECT COALESCE(sum(ce.ttes), 0)::int AS total
  FROM rollup_sync_day ce
 WHERE ce.event_date = :srcDate::date
   AND ce.lobby_code IS NOT NULL
   AND (:zone::text IS NULL OR ce.zone_code = :zone)
   AND (:division::text IS NULL OR ce.div_code = :division)
   AND (:lobby::text IS NULL OR ce.lobby_code = :lobby)
   AND {{scope}}
