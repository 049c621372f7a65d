-- tripId {id}: the EFTs issued on one trip (a TTE's beat), as in the EFT report. Rows answer under eftList.
SELECT e.eft_no,
       e.issued_at,
       ist_date(e.issued_at) AS eft_date,
       tr.train_no,
       tr.start_date,
       e.coach_id AS coach,
       e.pnr,
       mask_name(e.psgn_name) AS passenger,
       e.from_station,
       e.to_station,
       e.reason,
       e.excess_fare,
       e.excess_charge,
       e.total,
       e.payment_mode,
       e.tte_id,
       e.device_id AS hht_id,
       e.trip_id
  FROM efts e
  JOIN train_runs tr ON tr.run_id = e.run_id
 WHERE e.trip_id = :id
   AND {{scope}}
 ORDER BY e.issued_at, e.eft_no
