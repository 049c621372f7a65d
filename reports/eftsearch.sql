-- eft-search {eftNo, srcDate}: one EFT in full, with its digital payment if any. The passenger's name is masked
-- like in every other report (one rule for personal data: Trip ID Search shows the same EFT masked).
-- srcDate matches the EFT's IST issue date or its run date.
SELECT e.eft_no,
       e.issued_at,
       tr.train_no,
       t.name AS train_name,
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
       dp.txn_id,
       dp.mode AS txn_mode,
       dp.status AS payment_status,
       dp.amount AS paid_amount,
       dp.txn_at,
       ist_date(dp.txn_at) AS txn_date,
       dp.pos_id,
       e.tte_id,
       te.name AS tte_name,
       e.lobby_code AS lobby,
       e.div_code AS division,
       e.device_id AS hht_id,
       e.trip_id,
       b.sign_on_id,
       b.beat_no,
       b.from_station || '-' || b.to_station AS beat,
       e.synced_at,
       round(extract(epoch FROM e.synced_at - e.issued_at) / 60.0, 1) AS sync_delay_min
  FROM efts e
  JOIN train_runs tr ON tr.run_id = e.run_id
  JOIN trains t ON t.train_no = tr.train_no
  JOIN beats b ON b.beat_id = e.beat_id
  LEFT JOIN ttes te ON te.tte_id = e.tte_id
  LEFT JOIN LATERAL (
        SELECT d.txn_id, d.mode, d.status, d.amount, d.txn_at, d.pos_id
          FROM digital_payments d
         WHERE d.eft_no = e.eft_no
         ORDER BY (d.status = 'SUCCESS') DESC, d.txn_at DESC
         LIMIT 1
       ) dp ON TRUE
 WHERE e.eft_no = :eftNo
   AND (ist_date(e.issued_at) = :srcDate::date OR tr.start_date = :srcDate::date)
   AND {{scope}}
