-- The number of rows syncDelaySummary gives for a date: the date's rollup_sync rows in the user's scope, as the day
-- rollup counts them per lobby (migration 020), so a page's count reads about a hundred rows whatever the day's size.
SELECT COALESCE(sum(ce.sync_rows), 0)::int AS total
  FROM rollup_sync_day ce
 WHERE ce.event_date = :srcDate::date
   AND ce.lobby_code IS NOT NULL
   AND {{scope}}
