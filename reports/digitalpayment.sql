-- Card/UPI transactions on one IST date (digital_payments_at index), optionally for one TTE. With a sign-on id: every
-- payment for an EFT of that sign-on's beat, whatever its date (the Sign On/Off tab's count), searched from the date
-- (the sign-on's) over the 4 days a beat's duty can span.
SELECT dp.txn_id,
       dp.txn_at,
       dp.eft_no,
       ist_date(e.issued_at) AS eft_date,
       dp.amount,
       dp.mode,
       dp.status,
       dp.tte_id,
       t.name AS tte_name,
       dp.pos_id,
       dp.sign_on_id,
       tr.train_no,
       tr.start_date,
       dp.lobby_code,
       dp.div_code
  FROM digital_payments dp
  LEFT JOIN ttes t ON t.tte_id = dp.tte_id
  LEFT JOIN efts e ON e.eft_no = dp.eft_no
  LEFT JOIN train_runs tr ON tr.run_id = e.run_id
  LEFT JOIN beats eb ON eb.beat_id = e.beat_id
 WHERE dp.txn_at >= :srcDate::date::timestamp AT TIME ZONE 'Asia/Kolkata'
   AND dp.txn_at < (:srcDate::date + CASE WHEN :signOnId::text IS NULL THEN 1 ELSE 4 END)::timestamp AT TIME ZONE 'Asia/Kolkata'
   AND (:zone::text IS NULL OR dp.zone_code = :zone)
   AND (:division::text IS NULL OR dp.div_code = :division)
   AND (:lobby::text IS NULL OR dp.lobby_code = :lobby)
   AND (:tteId::text IS NULL OR dp.tte_id = :tteId)
   AND (:signOnId::text IS NULL OR eb.sign_on_id = :signOnId)
   AND {{scope}}
 ORDER BY dp.txn_at, dp.txn_id
