-- TTE-wise EFT Summary's first rows of each kept date range: the range's rows (per TTE, lobby, division, zone) in the
-- report's order (amount DESC, TTE, lobby, division, zone) that come before the range's bound, every row without one.
WITH e AS (
  SELECT ist_date(issued_at) AS issue_date, run_id, tte_id, lobby_code, div_code, zone_code, payment_mode, total,
         payment_mode <> 'CASH' AND EXISTS (SELECT 1 FROM digital_payments dp WHERE dp.eft_no = efts.eft_no AND dp.status = 'SUCCESS') AS paid FROM efts
), sums AS (
  SELECT g.lo, g.hi, e.tte_id, e.lobby_code, e.div_code, e.zone_code, count(*)::int AS eft_count, count(DISTINCT e.run_id)::int AS trains_worked,
         sum(e.total) AS amount, COALESCE(sum(e.total) FILTER (WHERE e.payment_mode = 'CASH'), 0) AS cash,
         COALESCE(sum(e.total) FILTER (WHERE e.paid), 0) AS digital,
         round(100.0 * count(*) FILTER (WHERE e.payment_mode <> 'CASH') / count(*), 1) AS digital_pct,
         g.bound_amount, g.bound_tte, g.bound_lobby, g.bound_div, g.bound_zone
    FROM rollup_eft_rank_range g
    JOIN e ON e.issue_date BETWEEN g.lo AND g.hi
   GROUP BY g.lo, g.hi, e.tte_id, e.lobby_code, e.div_code, e.zone_code, g.bound_amount, g.bound_tte, g.bound_lobby, g.bound_div, g.bound_zone
)
SELECT lo, hi, tte_id, lobby_code, div_code, zone_code, eft_count, trains_worked, amount, cash, digital, digital_pct
  FROM sums
 WHERE bound_amount IS NULL OR amount > bound_amount
    OR (amount = bound_amount AND (tte_id, lobby_code, div_code, zone_code) < (bound_tte, bound_lobby, bound_div, bound_zone))
