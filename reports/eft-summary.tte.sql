-- EFTs per TTE issued in an IST date range: count, amount, cash and digital (card + UPI).
-- Reads the EFT rollup (migration 018: per IST issue date, run and TTE, the payment modes as columns). One row per TTE: tens of
-- thousands India-wide, so the view is paged by the server. A TTE's runs are the rows that start their (run, TTE)
-- pair within the range (migration 020: pair_prev_date), so no DISTINCT sort. Names are looked up per answer row
-- (subqueries, which PostgreSQL evaluates after the sort and the page's LIMIT: 50 look-ups, not one per TTE). The
-- page's count comes from the EFT day rollup (eft-summary.tte.count.sql). The order by amount over a chosen range
-- cannot be kept ahead, so a page still groups the range's rows: its time grows with the country's TTEs.
SELECT e.tte_id,
       (SELECT t.name FROM ttes t WHERE t.tte_id = e.tte_id) AS tte_name,
       (SELECT t.designation FROM ttes t WHERE t.tte_id = e.tte_id) AS designation,
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
               count(*) FILTER (WHERE e.pair_prev_date IS NULL OR e.pair_prev_date < :start_date::date)::int AS trains_worked,
               sum(e.total) AS amount,
               sum(e.cash) AS cash,
               sum(e.digital) AS digital,
               round(100.0 * sum(e.digital_efts) / sum(e.efts), 1) AS digital_pct
          FROM rollup_efts e
         WHERE e.issue_date BETWEEN :start_date::date AND :end_date::date
           AND (:zone::text IS NULL OR e.zone_code = :zone)
           AND (:division::text IS NULL OR e.div_code = :division)
           AND {{scope}}
         GROUP BY e.tte_id, e.lobby_code, e.div_code, e.zone_code) e
 ORDER BY e.amount DESC, e.tte_id
