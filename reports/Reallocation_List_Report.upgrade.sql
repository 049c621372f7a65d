-- Passengers upgraded on board: EFTs with reason UPGRADE on one train run, booked class vs. the class of the
-- coach they were moved to; names masked.
SELECT e.eft_no,
       e.pnr,
       mask_name(e.psgn_name) AS psgn_name,
       pn.class AS booked_class,
       rc.class AS upgraded_class,
       e.coach_id AS coach,
       e.from_station,
       e.to_station,
       e.excess_fare,
       e.excess_charge,
       e.total,
       e.payment_mode,
       e.issued_at,
       e.tte_id,
       t.name AS tte_name
  FROM train_runs tr
  JOIN efts e ON e.run_id = tr.run_id AND e.reason = 'UPGRADE'
  LEFT JOIN pnrs pn ON pn.pnr = e.pnr
  LEFT JOIN run_coaches rc ON rc.run_id = e.run_id AND rc.coach_id = e.coach_id
  LEFT JOIN ttes t ON t.tte_id = e.tte_id
 WHERE tr.train_no = :trainNo
   AND tr.start_date = :startDate::date
   AND (:cls::text IS NULL OR rc.class = :cls)
   AND {{scope}}
 ORDER BY e.issued_at, e.eft_no
