-- orgToDestDateRange: runs (start dates in the range) of trains that call at the origin and later at the
-- destination; per run the passengers booked, those booked exactly origin -> destination, and occupancy.
WITH od AS (
  SELECT o.train_no,
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
  SELECT tr.run_id, tr.train_no, tr.start_date, tr.div_code, od.origin, od.dep_time, od.origin_day,
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
), pax AS (
  SELECT p.run_id,
         count(*)::int AS passengers,
         count(*) FILTER (WHERE p.from_station = r.origin AND p.to_station = r.destination)::int AS od_passengers,
         count(*) FILTER (WHERE p.mark = 'O')::int AS turned_up
    FROM passengers p
    JOIN runs r ON r.run_id = p.run_id
   WHERE p.current_status <> 'CAN'
   GROUP BY p.run_id
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
       round(100.0 * COALESCE(p.passengers, 0) / NULLIF(c.capacity, 0), 1) AS occupancy_pct
  FROM runs r
  JOIN trains t ON t.train_no = r.train_no
  LEFT JOIN cap c ON c.run_id = r.run_id
  LEFT JOIN pax p ON p.run_id = r.run_id
 ORDER BY r.start_date, r.dep_time, r.train_no
