-- EFTs per TTE issued in an IST date range: count, amount, cash and digital (card + UPI), highest amount first.
-- One row per TTE and lobby: tens of thousands India-wide, so the view is paged by the server, and its first rows
-- come from the ranked rollup (migration 024): for every range of up to 32 dates it keeps the first rows in this
-- order, and the first row it let go (the bound). The first branch reads the kept rows of the range from an index in
-- order; the second groups the range's EFT rollup rows (migration 018, payment modes as columns) for the rows from the
-- bound on, or for every row when the range is not kept. PostgreSQL runs the branches in turn and stops at the page's
-- LIMIT, so a page within the kept rows never groups the range. A range ending after the last date with EFTs is the
-- range ending at that date. A TTE's runs are the rows that start their (run, TTE) pair within the range (migration
-- 020: pair_prev_date). Names are looked up per answer row (50 look-ups a page). The count: eft-summary.tte.count.sql.
WITH kept AS (
  SELECT g.lo, g.hi, g.bound_amount, g.bound_tte, g.bound_lobby, g.bound_div, g.bound_zone
    FROM rollup_eft_rank_range g
   WHERE g.lo = :start_date::date
     AND g.hi = least(:end_date::date, (SELECT max(m.hi) FROM rollup_eft_rank_range m))
)
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
       e.amount - e.cash - e.digital AS unpaid,
       e.digital_pct,
       :start_date::date AS from_date,
       :end_date::date AS to_date
  FROM ((SELECT e.tte_id, e.lobby_code, e.div_code, e.zone_code, e.eft_count, e.trains_worked, e.amount, e.cash, e.digital, e.digital_pct
           FROM rollup_eft_rank e
           JOIN kept k ON k.lo = e.lo AND k.hi = e.hi
          WHERE (:zone::text IS NULL OR e.zone_code = :zone)
            AND (:division::text IS NULL OR e.div_code = :division)
            AND {{scope}}
          ORDER BY e.amount DESC, e.tte_id, e.lobby_code, e.div_code, e.zone_code)
        UNION ALL
        (SELECT e.tte_id, e.lobby_code, e.div_code, e.zone_code, e.eft_count, e.trains_worked, e.amount, e.cash, e.digital, e.digital_pct
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
          WHERE NOT EXISTS (SELECT 1 FROM kept k WHERE k.bound_amount IS NULL)
            AND NOT EXISTS (SELECT 1 FROM kept k
                             WHERE e.amount > k.bound_amount
                                OR (e.amount = k.bound_amount AND (e.tte_id, e.lobby_code, e.div_code, e.zone_code) < (k.bound_tte, k.bound_lobby, k.bound_div, k.bound_zone)))
          ORDER BY e.amount DESC, e.tte_id, e.lobby_code, e.div_code, e.zone_code)) e
