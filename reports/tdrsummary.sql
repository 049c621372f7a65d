-- tdrSummary: TDRs of runs in the date range per division, train and reason, with status counts and refunds.
-- Reads the TDR rollup (migration 014: per run and reason).
SELECT td.zone_code AS zone,
       td.div_code AS division,
       td.train_no,
       t.name AS train_name,
       td.reason,
       sum(td.tdrs)::int AS tdrs,
       sum(td.filed)::int AS filed,
       sum(td.attested)::int AS attested,
       sum(td.refunded)::int AS refunded,
       sum(td.rejected)::int AS rejected,
       sum(td.refund_amount) AS refund_amount,
       :start_date::date AS from_date,
       :end_date::date AS to_date
  FROM rollup_tdrs td
  JOIN trains t ON t.train_no = td.train_no
 WHERE td.start_date BETWEEN :start_date::date AND :end_date::date
   AND (:zone::text IS NULL OR td.zone_code = :zone)
   AND (:division::text IS NULL OR td.div_code = :division)
   AND (:trainNo::text IS NULL OR td.train_no = :trainNo)
   AND {{scope}}
 GROUP BY td.zone_code, td.div_code, td.train_no, t.name, td.reason
 ORDER BY td.zone_code, td.div_code, td.train_no, td.reason
