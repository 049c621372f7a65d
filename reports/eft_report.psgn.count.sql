-- The number of rows eft-psgn-report lists: one per EFT of the range (the booking is a left lookup), counted without
-- looking the bookings up.
SELECT count(*)::int AS total
  FROM efts f
  JOIN train_runs tr ON tr.run_id = f.run_id
 WHERE f.issued_at >= :start_date::date::timestamp AT TIME ZONE 'Asia/Kolkata'
   AND f.issued_at < (:end_date::date + 1)::timestamp AT TIME ZONE 'Asia/Kolkata'
   AND (:zone::text IS NULL OR f.zone_code = :zone)
   AND (:division::text IS NULL OR f.div_code = :division)
   AND (:lobby::text IS NULL OR f.lobby_code = :lobby)
   AND (:trainNo::text IS NULL OR tr.train_no = :trainNo)
   AND (:tteId::text IS NULL OR f.tte_id = :tteId)
   AND (:reason::text IS NULL OR f.reason = :reason)
   AND (:paymentMode::text IS NULL OR f.payment_mode = :paymentMode)
   AND {{scope}}
