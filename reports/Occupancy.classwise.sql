-- Class-wise occupancy of one train run: the coach-wise figures (see Occupancy.coachwise.sql) summed per class.
SELECT c.class,
       count(*)::int AS coaches,
       sum(c.capacity)::int AS capacity,
       sum(c.booked)::int AS booked,
       sum(c.turned_up)::int AS turned_up,
       sum(c.nt)::int AS nt,
       sum(c.not_marked)::int AS not_marked,
       sum(c.vacant)::int AS vacant,
       round(100.0 * (sum(c.capacity) - sum(c.vacant)) / NULLIF(sum(c.capacity), 0), 1) AS occupancy_pct,
       min(c.train_no) AS train_no,
       min(c.start_date) AS start_date
  FROM (
        SELECT rc.class,
               rc.capacity,
               tr.train_no,
               tr.start_date,
               ps.booked,
               ps.turned_up,
               ps.nt,
               ps.not_marked,
               greatest(rc.capacity - ps.held_berths, 0) AS vacant
          FROM train_runs tr
          JOIN run_coaches rc ON rc.run_id = tr.run_id
          CROSS JOIN LATERAL (
                SELECT count(*) FILTER (WHERE p.current_status <> 'CAN')::int AS booked,
                       count(*) FILTER (WHERE p.mark = 'O')::int AS turned_up,
                       count(*) FILTER (WHERE p.mark = 'NT')::int AS nt,
                       count(*) FILTER (WHERE p.mark IS NULL AND p.current_status <> 'CAN')::int AS not_marked,
                       count(DISTINCT p.berth_no) FILTER (WHERE p.current_status <> 'CAN' AND p.mark IS DISTINCT FROM 'NT')::int AS held_berths
                  FROM passengers p
                 WHERE p.run_id = rc.run_id
                   AND p.coach_id = rc.coach_id
               ) ps
         WHERE tr.train_no = :trainNo
           AND tr.start_date = :startDate::date
           AND (:cls::text IS NULL OR rc.class = :cls)
           AND {{scope}}
       ) c
 GROUP BY c.class
 ORDER BY min(CASE c.class WHEN '1A' THEN 1 WHEN 'EC' THEN 2 WHEN '2A' THEN 3 WHEN '3A' THEN 4 WHEN 'CC' THEN 5
                           WHEN '3E' THEN 6 WHEN 'SL' THEN 7 ELSE 8 END)
