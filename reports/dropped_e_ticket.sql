-- Fully waitlisted e-tickets dropped at charting on one train run, and whether the holder was found on board
-- (then ticketless: the EFT issued). Names masked.
SELECT de.pnr,
       de.psgn_no,
       mask_name(de.name) AS psgn_name,
       de.booking_status,
       de.class,
       de.from_station,
       de.to_station,
       de.dropped_at,
       CASE WHEN de.found_travelling THEN 'YES' ELSE 'NO' END AS found_travelling,
       de.eft_no,
       e.total AS eft_amount
  FROM train_runs tr
  JOIN dropped_etickets de ON de.run_id = tr.run_id
  LEFT JOIN efts e ON e.eft_no = de.eft_no
 WHERE tr.train_no = :trainNo
   AND tr.start_date = :startDate::date
   AND (:cls::text IS NULL OR de.class = :cls)
   AND {{scope}}
 ORDER BY de.found_travelling DESC, de.pnr, de.psgn_no
