-- tdrSummary: TDRs of runs in the date range per division, train and reason, with status counts and refunds.
SELECT td.zone_code AS zone,
       td.div_code AS division,
       tr.train_no,
       t.name AS train_name,
       td.reason,
       count(*)::int AS tdrs,
       count(*) FILTER (WHERE td.status = 'FILED')::int AS filed,
       count(*) FILTER (WHERE td.status = 'ATTESTED')::int AS attested,
       count(*) FILTER (WHERE td.status = 'REFUNDED')::int AS refunded,
       count(*) FILTER (WHERE td.status = 'REJECTED')::int AS rejected,
       COALESCE(sum(td.refund_amount) FILTER (WHERE td.status = 'REFUNDED'), 0) AS refund_amount,
       :start_date::date AS from_date,
       :end_date::date AS to_date
  FROM tdrs td
  JOIN train_runs tr ON tr.run_id = td.run_id
  JOIN trains t ON t.train_no = tr.train_no
 WHERE tr.start_date BETWEEN :start_date::date AND :end_date::date
   AND (:zone::text IS NULL OR td.zone_code = :zone)
   AND (:division::text IS NULL OR td.div_code = :division)
   AND (:trainNo::text IS NULL OR tr.train_no = :trainNo)
   AND {{scope}}
 GROUP BY td.zone_code, td.div_code, tr.train_no, t.name, td.reason
 ORDER BY td.zone_code, td.div_code, tr.train_no, td.reason
