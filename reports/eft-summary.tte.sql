-- EFTs per TTE issued in an IST date range: count, amount, cash and digital (card + UPI).
-- Reads the EFT rollup (migration 014: per IST issue date, run, TTE and payment mode). One row per TTE: tens of
-- thousands India-wide, so the view is paged by the server; names are joined after grouping, so the page's count
-- (which reads no name) skips them.
SELECT e.tte_id,
       t.name AS tte_name,
       t.designation,
       e.lobby_code,
       e.div_code,
       e.zone_code,
       e.eft_count,
       e.trains_worked,
       e.amount,
       e.cash,
       e.digital,
       e.digital_pct,
       :start_date::date AS from_date,
       :end_date::date AS to_date
  FROM (SELECT e.tte_id,
               e.lobby_code,
               e.div_code,
               e.zone_code,
               sum(e.efts)::int AS eft_count,
               count(DISTINCT e.run_id)::int AS trains_worked,
               sum(e.total) AS amount,
               COALESCE(sum(e.total) FILTER (WHERE e.payment_mode = 'CASH'), 0) AS cash,
               COALESCE(sum(e.total) FILTER (WHERE e.payment_mode <> 'CASH'), 0) AS digital,
               round(100.0 * COALESCE(sum(e.efts) FILTER (WHERE e.payment_mode <> 'CASH'), 0) / sum(e.efts), 1) AS digital_pct
          FROM rollup_efts e
         WHERE e.issue_date BETWEEN :start_date::date AND :end_date::date
           AND (:zone::text IS NULL OR e.zone_code = :zone)
           AND (:division::text IS NULL OR e.div_code = :division)
           AND {{scope}}
         GROUP BY e.tte_id, e.lobby_code, e.div_code, e.zone_code) e
  LEFT JOIN ttes t ON t.tte_id = e.tte_id
 ORDER BY e.amount DESC, e.tte_id
