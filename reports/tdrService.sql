-- TDRs (refund claims) filed for train runs started in the date range (train_runs start_date index), with the
-- TTE's attestation (EFT/GC certificate, remark) and the refund status.
SELECT td.tdr_id,
       td.pnr,
       tr.train_no,
       tr.start_date,
       td.reason,
       td.coach_id AS coach,
       td.class,
       td.filed_at,
       td.certificate_no,
       td.tte_remark,
       td.status,
       td.refund_amount,
       tr.div_code
  FROM train_runs tr
  JOIN tdrs td ON td.run_id = tr.run_id
 WHERE tr.start_date BETWEEN :start_date::date AND :end_date::date
   AND (:zone::text IS NULL OR tr.zone_code = :zone)
   AND (:division::text IS NULL OR tr.div_code = :division)
   AND (:trainNo::text IS NULL OR tr.train_no = :trainNo)
   AND (:status::text IS NULL OR td.status = :status)
   AND {{scope}}
 ORDER BY td.filed_at, td.tdr_id
