-- Station-wise census of one train run along its schedule: passengers boarding and alighting at each stop
-- (berth holders, not cancelled, not marked NT), passengers on board after departure, and occupancy against
-- the run's reserved capacity.
WITH run AS (
  SELECT tr.run_id, tr.train_no, tr.start_date
    FROM train_runs tr
   WHERE tr.train_no = :trainNo
     AND tr.start_date = :startDate::date
     AND {{scope}}
), cap AS (
  SELECT sum(rc.capacity)::int AS capacity
    FROM run_coaches rc
    JOIN run ON run.run_id = rc.run_id
   WHERE (:cls::text IS NULL OR rc.class = :cls)
), moves AS (
  SELECT p.from_station AS station_code, 1 AS boarding, 0 AS alighting
    FROM passengers p JOIN run ON run.run_id = p.run_id
   WHERE p.current_status <> 'CAN' AND p.mark IS DISTINCT FROM 'NT' AND p.coach_id IS NOT NULL
     AND (:cls::text IS NULL OR p.class = :cls)
  UNION ALL
  SELECT p.to_station, 0, 1
    FROM passengers p JOIN run ON run.run_id = p.run_id
   WHERE p.current_status <> 'CAN' AND p.mark IS DISTINCT FROM 'NT' AND p.coach_id IS NOT NULL
     AND (:cls::text IS NULL OR p.class = :cls)
), per_station AS (
  SELECT station_code, sum(boarding)::int AS boarding, sum(alighting)::int AS alighting
    FROM moves
   GROUP BY station_code
)
SELECT ts.seq,
       ts.station_code,
       s.name AS station_name,
       ts.arr_time AS arrival,
       ts.dep_time AS departure,
       ts.day_no,
       ts.distance_km,
       COALESCE(ps.boarding, 0) AS boarding,
       COALESCE(ps.alighting, 0) AS alighting,
       (sum(COALESCE(ps.boarding, 0) - COALESCE(ps.alighting, 0)) OVER (ORDER BY ts.seq))::int AS on_board,
       cap.capacity,
       round(100.0 * sum(COALESCE(ps.boarding, 0) - COALESCE(ps.alighting, 0)) OVER (ORDER BY ts.seq)
             / NULLIF(cap.capacity, 0), 1) AS occupancy_pct,
       lead(ts.station_code) OVER (ORDER BY ts.seq) AS next_station,
       run.start_date
  FROM run
  JOIN train_stops ts ON ts.train_no = run.train_no
  JOIN stations s ON s.station_code = ts.station_code
  CROSS JOIN cap
  LEFT JOIN per_station ps ON ps.station_code = ts.station_code
 ORDER BY ts.seq
