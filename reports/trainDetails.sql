-- trainSchedule: the timetable of one train. Scope by the train's owning zone/division (trains carry no lobby).
SELECT ts.seq,
       ts.station_code,
       s.name AS station_name,
       COALESCE(ts.arr_time, 'Source') AS arrival,
       COALESCE(ts.dep_time, 'Destination') AS departure,
       ts.day_no,
       ts.distance_km,
       ts.halt_min
  FROM train_stops ts
  JOIN trains t ON t.train_no = ts.train_no
  JOIN stations s ON s.station_code = ts.station_code
 WHERE ts.train_no = :trainNo
   AND {{scope}}
 ORDER BY ts.seq
