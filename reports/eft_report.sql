-- EFTs issued on board in an IST date range (efts_issued index), optionally for one train, TTE, reason or mode.
-- Paid: cash, or card/UPI with a SUCCESS payment; a card/UPI EFT without one is UNPAID and collects nothing.
SELECT e.eft_no,
       e.issued_at,
       ist_date(e.issued_at) AS eft_date,
       tr.train_no,
       tr.start_date,
       e.coach_id AS coach,
       e.pnr,
       e.from_station,
       e.to_station,
       e.reason,
       e.excess_fare,
       e.excess_charge,
       e.total,
       e.payment_mode,
       CASE WHEN p.paid THEN 'PAID' ELSE 'UNPAID' END AS payment_status,
       CASE WHEN p.paid THEN e.total ELSE 0 END AS collected,
       e.tte_id,
       t.name AS tte_name,
       e.lobby_code,
       e.div_code,
       e.trip_id,
       e.synced_at
  FROM efts e
  JOIN train_runs tr ON tr.run_id = e.run_id
  CROSS JOIN LATERAL (SELECT e.payment_mode = 'CASH' OR EXISTS (
                        SELECT 1 FROM digital_payments dp WHERE dp.eft_no = e.eft_no AND dp.status = 'SUCCESS') AS paid) p
  LEFT JOIN ttes t ON t.tte_id = e.tte_id
 WHERE e.issued_at >= :start_date::date::timestamp AT TIME ZONE 'Asia/Kolkata'
   AND e.issued_at < (:end_date::date + 1)::timestamp AT TIME ZONE 'Asia/Kolkata'
   AND (:zone::text IS NULL OR e.zone_code = :zone)
   AND (:division::text IS NULL OR e.div_code = :division)
   AND (:lobby::text IS NULL OR e.lobby_code = :lobby)
   AND (:trainNo::text IS NULL OR tr.train_no = :trainNo)
   AND (:tteId::text IS NULL OR e.tte_id = :tteId)
   AND (:reason::text IS NULL OR e.reason = :reason)
   AND (:paymentMode::text IS NULL OR e.payment_mode = :paymentMode)
   AND {{scope}}
 ORDER BY e.issued_at, e.eft_no
