-- Coach-wise occupancy of one train run. booked = passengers holding a berth in the coach (not cancelled);
-- vacant = capacity minus berths held by passengers not marked NT; occupancy % = (capacity - vacant) / capacity.
SELECT rc.seq,
       rc.coach_id AS coach,
       rc.class,
       rc.capacity,
       ps.booked,
       ps.turned_up,
       ps.nt,
       ps.not_marked,
       greatest(rc.capacity - ps.held_berths, 0) AS vacant,
       round(100.0 * least(ps.held_berths, rc.capacity) / NULLIF(rc.capacity, 0), 1) AS occupancy_pct,
       tr.train_no,
       tr.start_date
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
 ORDER BY rc.seq
