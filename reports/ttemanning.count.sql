-- The number of rows TteManningReport lists: its TTEs per duty date and lobby (migration 023), summed over the
-- lobbies the filter and the user's scope show, so a page's count reads a row per lobby, not one per TTE.
SELECT COALESCE(sum(b.ttes), 0)::int AS total
  FROM rollup_tte_duty_lobby b
 WHERE b.duty_date = :srcDate::date
   AND (:zone::text IS NULL OR b.zone_code = :zone)
   AND (:division::text IS NULL OR b.div_code = :division)
   AND (:lobby::text IS NULL OR b.lobby_code = :lobby)
   AND {{scope}}
