-- The SQL eft-psgn-report had before its page was made safe under a generic plan (kept to compare rows with; its EFT
-- alias is f, the alias the view's scope names now).
-- EFTs in an IST date range with the passenger's booking on the EFT's run (matched on PNR and name); names and
-- mobiles masked. The booking is looked up in the run's own partition (run_id first): by PNR alone every
-- partition's index was probed for each EFT.
SELECT f.eft_no,
       f.issued_at,
       tr.train_no,
       tr.start_date,
       f.pnr,
       mask_name(f.psgn_name) AS psgn_name,
       ps.age,
       ps.gender,
       ps.mobile_masked AS mobile_no,
       ps.class AS booked_class,
       ps.booking_status,
       ps.current_status,
       ps.coach_id AS booked_coach,
       ps.berth_no AS booked_berth,
       f.coach_id AS coach,
       f.from_station,
       f.to_station,
       f.reason,
       f.total,
       f.payment_mode,
       f.tte_id,
       f.div_code
  FROM efts f
  JOIN train_runs tr ON tr.run_id = f.run_id
  LEFT JOIN LATERAL (
        SELECT p.age, p.gender, mask_mobile(p.mobile_no) AS mobile_masked, p.class, p.booking_status, p.current_status, p.coach_id, p.berth_no
          FROM passengers p
         WHERE p.run_id = f.run_id AND p.pnr = f.pnr
         ORDER BY (p.name = f.psgn_name) DESC, p.psgn_no
         LIMIT 1
       ) ps ON true
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
 ORDER BY f.issued_at, f.eft_no
