-- The number of rows eft-psgn-report lists: one per EFT of the range (the booking is a left lookup), counted without
-- looking the bookings up.
SELECT count(*)::int AS total
  FROM efts e
  JOIN train_runs tr ON tr.run_id = e.run_id
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
