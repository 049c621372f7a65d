-- EFTs issued on a date. Collected: cash, or card/UPI with a SUCCESS payment; a card/UPI EFT without one is UNPAID
-- and collects nothing (the dashboard card adds up `collected`).
SELECT e.eft_no,
       e.issued_at,
       tr.train_no,
       e.coach_id AS coach,
       e.from_station,
       e.to_station,
       e.reason,
       e.excess_fare,
       e.excess_charge,
       e.total,
       e.payment_mode,
       CASE WHEN p.paid THEN 'PAID' ELSE 'UNPAID' END AS payment_status,
       CASE WHEN p.paid THEN e.total ELSE 0 END AS collected,
       e.tte_id
  FROM efts e
  JOIN train_runs tr ON tr.run_id = e.run_id
  CROSS JOIN LATERAL (SELECT e.payment_mode = 'CASH' OR EXISTS (
                        SELECT 1 FROM digital_payments dp WHERE dp.eft_no = e.eft_no AND dp.status = 'SUCCESS') AS paid) p
 WHERE e.issued_at >= (:srcDate::date)::timestamp AT TIME ZONE 'Asia/Kolkata'
   AND e.issued_at < (:srcDate::date + 1)::timestamp AT TIME ZONE 'Asia/Kolkata'
   AND {{scope}}
 ORDER BY e.issued_at DESC, e.eft_no
