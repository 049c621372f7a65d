-- EFTs per zone and division issued in an IST date range: count, amount, cash and digital (card + UPI).
-- Reads the EFT rollup (migration 014: per IST issue date, run, TTE and payment mode).
SELECT e.zone_code,
       e.div_code,
       d.name AS div_name,
       sum(e.efts)::int AS eft_count,
       count(DISTINCT e.tte_id)::int AS ttes,
       sum(e.total) AS amount,
       COALESCE(sum(e.total) FILTER (WHERE e.payment_mode = 'CASH'), 0) AS cash,
       COALESCE(sum(e.total) FILTER (WHERE e.payment_mode <> 'CASH'), 0) AS digital,
       COALESCE(sum(e.total) FILTER (WHERE e.payment_mode = 'CARD'), 0) AS card,
       COALESCE(sum(e.total) FILTER (WHERE e.payment_mode = 'UPI'), 0) AS upi,
       round(100.0 * COALESCE(sum(e.efts) FILTER (WHERE e.payment_mode <> 'CASH'), 0) / sum(e.efts), 1) AS digital_pct,
       :start_date::date AS from_date,
       :end_date::date AS to_date
  FROM rollup_efts e
  LEFT JOIN divisions d ON d.div_code = e.div_code
 WHERE e.issue_date BETWEEN :start_date::date AND :end_date::date
   AND (:zone::text IS NULL OR e.zone_code = :zone)
   AND (:division::text IS NULL OR e.div_code = :division)
   AND {{scope}}
 GROUP BY e.zone_code, e.div_code, d.name
 ORDER BY e.zone_code, e.div_code
