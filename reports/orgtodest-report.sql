-- orgToDestDateRange: runs (start dates in the range) of trains that call at the origin and later at the
-- destination; per run the passengers booked, those booked exactly origin -> destination, and occupancy of
-- the origin -> destination section: the peak number on board (berth holders not cancelled and not marked NT,
-- as in census-occupency-report) at any departure from the origin up to the stop before the destination, over
-- capacity. Counting every booking of the run instead would pass 100 %: a berth sold on two segments holds two
-- passengers.
-- Passengers are read through the range's run_ids (run_id = day * 100000 + train_no), so only the range's partitions
-- are planned and read: joined through the runs alone, every partition was.
WITH od AS (
  SELECT o.train_no,
         o.seq AS origin_seq,
         d.seq AS destination_seq,
         o.station_code AS origin,
         o.dep_time,
         o.day_no AS origin_day,
         d.station_code AS destination,
         d.arr_time,
         d.day_no AS destination_day,
         d.distance_km - o.distance_km AS distance_km
    FROM train_stops o
    JOIN train_stops d ON d.train_no = o.train_no AND d.seq > o.seq
   WHERE o.station_code = upper(:origin)
     AND d.station_code = upper(:destination)
), runs AS (
  SELECT tr.run_id, tr.train_no, tr.start_date, tr.div_code, od.origin_seq, od.destination_seq, od.origin, od.dep_time, od.origin_day,
         od.destination, od.arr_time, od.destination_day, od.distance_km
    FROM od
    JOIN train_runs tr ON tr.train_no = od.train_no
   WHERE tr.start_date BETWEEN :start_date::date AND :end_date::date
     AND {{scope}}
), cap AS (
  SELECT rc.run_id, sum(rc.capacity)::int AS capacity
    FROM run_coaches rc
    JOIN runs r ON r.run_id = rc.run_id
   GROUP BY rc.run_id
), seg AS (
  -- Each run's passengers (not cancelled) by segment: one read of the run's rows through the (run_id, coach_id)
  -- index; the counts and the section's load below are sums over these few groups.
  SELECT r.run_id, g.from_station, g.to_station, g.n, g.turned_up, g.held
    FROM runs r
    CROSS JOIN LATERAL (
      SELECT p.from_station, p.to_station,
             count(*) AS n,
             count(*) FILTER (WHERE p.mark = 'O') AS turned_up,
             count(*) FILTER (WHERE p.mark IS DISTINCT FROM 'NT' AND p.coach_id IS NOT NULL) AS held
        FROM passengers p
       WHERE p.run_id = r.run_id
         AND p.run_id >= (:start_date::date - DATE '2000-01-01')::bigint * 100000
         AND p.run_id < (:end_date::date - DATE '2000-01-01' + 1)::bigint * 100000
         AND p.current_status <> 'CAN'
       GROUP BY p.from_station, p.to_station
    ) g
), pax AS (
  SELECT sg.run_id,
         sum(sg.n)::int AS passengers,
         COALESCE(sum(sg.n) FILTER (WHERE sg.from_station = r.origin AND sg.to_station = r.destination), 0)::int AS od_passengers,
         sum(sg.turned_up)::int AS turned_up
    FROM seg sg
    JOIN runs r ON r.run_id = sg.run_id
   GROUP BY sg.run_id
), load AS (
  -- On board when leaving each stop of the section: boarded at or before it, alighting after it.
  SELECT r.run_id, max(x.n)::int AS peak
    FROM runs r
    JOIN LATERAL (
      SELECT s.seq, sum(sg.held) AS n
        FROM seg sg
        JOIN train_stops pf ON pf.train_no = r.train_no AND pf.station_code = sg.from_station
        JOIN train_stops pt ON pt.train_no = r.train_no AND pt.station_code = sg.to_station
        JOIN train_stops s ON s.train_no = r.train_no AND s.seq >= r.origin_seq AND s.seq < r.destination_seq
       WHERE sg.run_id = r.run_id
         AND pf.seq <= s.seq AND pt.seq > s.seq
       GROUP BY s.seq
    ) x ON true
   GROUP BY r.run_id
)
SELECT r.train_no,
       t.name AS train_name,
       r.start_date,
       r.origin,
       r.start_date + (r.origin_day - 1) AS departure_date,
       r.dep_time AS departure,
       r.destination,
       r.start_date + (r.destination_day - 1) AS arrival_date,
       r.arr_time AS arrival,
       r.distance_km,
       r.div_code AS division,
       COALESCE(c.capacity, 0) AS capacity,
       COALESCE(p.passengers, 0) AS passengers,
       COALESCE(p.od_passengers, 0) AS od_passengers,
       COALESCE(p.turned_up, 0) AS turned_up,
       round(100.0 * COALESCE(l.peak, 0) / NULLIF(c.capacity, 0), 1) AS occupancy_pct
  FROM runs r
  JOIN trains t ON t.train_no = r.train_no
  LEFT JOIN cap c ON c.run_id = r.run_id
  LEFT JOIN pax p ON p.run_id = r.run_id
  LEFT JOIN load l ON l.run_id = r.run_id
 ORDER BY r.start_date, r.dep_time, r.train_no
