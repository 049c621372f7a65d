-- Class-wise occupancy of one train run: the coach-wise figures of run_coach_occupancy (migration 007) summed per class.
SELECT o.class,
       count(*)::int AS coaches,
       sum(o.capacity)::int AS capacity,
       sum(o.booked)::int AS booked,
       sum(o.turned_up)::int AS turned_up,
       sum(o.nt)::int AS nt,
       sum(o.not_marked)::int AS not_marked,
       sum(o.vacant)::int AS vacant,
       round(100.0 * (sum(o.capacity) - sum(o.vacant)) / NULLIF(sum(o.capacity), 0), 1) AS occupancy_pct,
       min(tr.train_no) AS train_no,
       min(tr.start_date) AS start_date
  FROM train_runs tr
  CROSS JOIN LATERAL run_coach_occupancy(tr.run_id) o
 WHERE tr.train_no = :trainNo
   AND tr.start_date = :startDate::date
   AND (:cls::text IS NULL OR o.class = :cls)
   AND {{scope}}
 GROUP BY o.class
 ORDER BY min(CASE o.class WHEN '1A' THEN 1 WHEN 'EC' THEN 2 WHEN '2A' THEN 3 WHEN '3A' THEN 4 WHEN 'CC' THEN 5
                           WHEN '3E' THEN 6 WHEN 'SL' THEN 7 ELSE 8 END)
