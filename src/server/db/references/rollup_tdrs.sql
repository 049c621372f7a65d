-- key: run_id
-- TDRs per run and reason: status counts and the refunds.
SELECT td.run_id, tr.start_date, tr.train_no, td.zone_code, td.div_code, td.reason, count(*),
       count(*) FILTER (WHERE td.status = 'FILED'), count(*) FILTER (WHERE td.status = 'ATTESTED'),
       count(*) FILTER (WHERE td.status = 'REFUNDED'), count(*) FILTER (WHERE td.status = 'REJECTED'),
       COALESCE(sum(td.refund_amount) FILTER (WHERE td.status = 'REFUNDED'), 0)
  FROM tdrs td
  JOIN train_runs tr ON tr.run_id = td.run_id
 WHERE td.run_id >= $1 AND td.run_id < $2
 GROUP BY td.run_id, tr.start_date, tr.train_no, td.zone_code, td.div_code, td.reason
