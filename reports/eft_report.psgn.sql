-- EFTs in an IST date range with the passenger's booking on the EFT's run (matched on PNR and name); names and
-- mobiles masked. The booking is looked up in the run's own partition (run_id first): by PNR alone every
-- partition's index was probed for each EFT.
-- The EFTs are ordered in a subquery and the run and booking looked up above it, so a page (the engine's LIMIT) looks
-- up its own rows only, whatever the plan: a prepared page's generic plan expects one EFT (it cannot see the dates or
-- which filters are NULL) and, with the lookups below the sort, looked up every EFT of the range before keeping 50
-- (6 s for a national week, against 5 ms planned for the values). The subquery keeps only the columns the list shows,
-- so that sort stays small.
SELECT e.eft_no,
       e.issued_at,
       tr.train_no,
       tr.start_date,
       e.pnr,
       mask_name(e.psgn_name) AS psgn_name,
       ps.age,
       ps.gender,
       ps.mobile_masked AS mobile_no,
       ps.class AS booked_class,
       ps.booking_status,
       ps.current_status,
       ps.coach_id AS booked_coach,
       ps.berth_no AS booked_berth,
       e.coach_id AS coach,
       e.from_station,
       e.to_station,
       e.reason,
       e.total,
       e.payment_mode,
       e.tte_id,
       e.div_code
  -- The EFT's name is carried raw for the booking match below only; the list shows it masked (mask_name above).
  FROM (SELECT f.eft_no, f.issued_at, f.run_id, f.pnr, f.psgn_name, f.coach_id, f.from_station, f.to_station, f.reason,
               f.total, f.payment_mode, f.tte_id, f.div_code
          FROM efts f
         WHERE f.issued_at >= :start_date::date::timestamp AT TIME ZONE 'Asia/Kolkata'
           AND f.issued_at < (:end_date::date + 1)::timestamp AT TIME ZONE 'Asia/Kolkata'
           AND (:zone::text IS NULL OR f.zone_code = :zone)
           AND (:division::text IS NULL OR f.div_code = :division)
           AND (:lobby::text IS NULL OR f.lobby_code = :lobby)
           AND (:trainNo::text IS NULL OR f.run_id IN (SELECT t.run_id FROM train_runs t WHERE t.train_no = :trainNo))
           AND (:tteId::text IS NULL OR f.tte_id = :tteId)
           AND (:reason::text IS NULL OR f.reason = :reason)
           AND (:paymentMode::text IS NULL OR f.payment_mode = :paymentMode)
           AND {{scope}}
         ORDER BY f.issued_at, f.eft_no) e
  JOIN train_runs tr ON tr.run_id = e.run_id
  LEFT JOIN LATERAL (
        SELECT p.age, p.gender, mask_mobile(p.mobile_no) AS mobile_masked, p.class, p.booking_status, p.current_status, p.coach_id, p.berth_no
          FROM passengers p
         WHERE p.run_id = e.run_id AND p.pnr = e.pnr
         ORDER BY (p.name = e.psgn_name) DESC, p.psgn_no
         LIMIT 1
       ) ps ON true
 ORDER BY e.issued_at, e.eft_no
