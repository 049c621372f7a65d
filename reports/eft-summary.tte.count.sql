-- The number of rows tteEftSummary lists (a row per TTE and lobby with EFTs in the range): the lobby rows of the EFT
-- day rollup (migration 022) count each TTE of a lobby once per range, so a page's count reads a row per date and
-- lobby instead of grouping the range's EFT rollup rows.
SELECT COALESCE(sum(e.ttes_since[e.issue_date - :start_date::date + 1]), 0)::int AS total
  FROM rollup_eft_day e
 WHERE e.issue_date BETWEEN :start_date::date AND :end_date::date
   AND e.lobby_code IS NOT NULL
   AND (:zone::text IS NULL OR e.zone_code = :zone)
   AND (:division::text IS NULL OR e.div_code = :division)
   AND {{scope}}
