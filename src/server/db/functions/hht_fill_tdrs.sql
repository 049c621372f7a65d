-- rollup_tdrs: TDRs per run and reason, with status counts and the refunds, for the runs lo <= run_id < hi.
CREATE OR REPLACE FUNCTION hht_fill_tdrs(lo bigint, hi bigint) RETURNS void LANGUAGE sql AS $$
  DELETE FROM rollup_tdrs WHERE run_id >= lo AND run_id < hi;
  INSERT INTO rollup_tdrs
  SELECT td.run_id, tr.start_date, tr.train_no, td.zone_code, td.div_code, td.reason, count(*),
         count(*) FILTER (WHERE td.status = 'FILED'), count(*) FILTER (WHERE td.status = 'ATTESTED'),
         count(*) FILTER (WHERE td.status = 'REFUNDED'), count(*) FILTER (WHERE td.status = 'REJECTED'),
         COALESCE(sum(td.refund_amount) FILTER (WHERE td.status = 'REFUNDED'), 0)
    FROM tdrs td
    JOIN train_runs tr ON tr.run_id = td.run_id
   WHERE td.run_id >= lo AND td.run_id < hi
   GROUP BY td.run_id, tr.start_date, tr.train_no, td.zone_code, td.div_code, td.reason;
$$;
