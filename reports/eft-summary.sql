-- EFTs per zone and division issued in an IST date range: count, amount, cash and digital (card + UPI).
-- Reads the EFT rollup (migration 018: per IST issue date, run and TTE, the payment modes as columns).
SELECT e.zone_code,
       e.div_code,
       d.name AS div_name,
       sum(e.efts)::int AS eft_count,
       count(DISTINCT e.tte_id)::int AS ttes,
       sum(e.total) AS amount,
       sum(e.cash) AS cash,
       sum(e.digital) AS digital,
       sum(e.card) AS card,
       sum(e.upi) AS upi,
       round(100.0 * sum(e.digital_efts) / sum(e.efts), 1) AS digital_pct,
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
