-- Coach-wise occupancy of one train run: the figures of run_coach_occupancy (migration 007), which defines booked,
-- vacant and occupancy % once for this tab and the class-wise one.
SELECT o.seq,
       o.coach_id AS coach,
       o.class,
       o.capacity,
       o.booked,
       o.turned_up,
       o.nt,
       o.not_marked,
       o.vacant,
       o.occupancy_pct,
       tr.train_no,
       tr.start_date
  FROM train_runs tr
  CROSS JOIN LATERAL run_coach_occupancy(tr.run_id) o
 WHERE tr.train_no = :trainNo
   AND tr.start_date = :startDate::date
   AND (:cls::text IS NULL OR o.class = :cls)
   AND {{scope}}
 ORDER BY o.seq
