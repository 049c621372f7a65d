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
       e.tte_id
  FROM efts e
  JOIN train_runs tr ON tr.run_id = e.run_id
 WHERE e.issued_at >= (:srcDate::date)::timestamp AT TIME ZONE 'Asia/Kolkata'
   AND e.issued_at < (:srcDate::date + 1)::timestamp AT TIME ZONE 'Asia/Kolkata'
   AND {{scope}}
 ORDER BY e.issued_at DESC, e.eft_no
