-- Passengers of one train run; names masked. Run by the (train_no, start_date) key.
-- :mark is fixed by each tab (source.params): NULL for all passengers, 'O' turned up, 'NT' not turned up.
SELECT p.pnr,
       p.psgn_no,
       mask_name(p.name) AS psgn_name,
       p.age,
       p.gender,
       p.coach_id AS coach,
       p.berth_no,
       p.berth_type,
       p.class,
       p.quota,
       p.booking_status,
       p.current_status,
       p.from_station,
       p.to_station,
       COALESCE(p.mark, 'NOT MARKED') AS mark,
       p.marked_at,
       p.marked_by
  FROM train_runs tr
  JOIN passengers p ON p.run_id = tr.run_id
 WHERE tr.train_no = :trainNo
   AND tr.start_date = :startDate::date
   -- The date's partition only (run_id = day * 100000 + train_no): planned over one partition, not every one.
   AND p.run_id >= (:startDate::date - DATE '2000-01-01')::bigint * 100000
   AND p.run_id < (:startDate::date - DATE '2000-01-01' + 1)::bigint * 100000
   AND (:cls::text IS NULL OR p.class = :cls)
   AND (:coach::text IS NULL OR p.coach_id = :coach)
   AND (:pnr::text IS NULL OR p.pnr = :pnr)
   AND (:mark::text IS NULL OR p.mark = :mark)
   AND {{scope}}
 ORDER BY p.coach_id NULLS LAST, p.berth_no, p.pnr, p.psgn_no
