-- trainInfo (GET): every train with its days of run decoded from run_days (Monday..Sunday, 'YNYNYNN').
SELECT t.train_no,
       t.name AS train_name,
       t.train_type,
       t.src_station AS from_station,
       ss.name AS from_station_name,
       t.dest_station AS to_station,
       ds.name AS to_station_name,
       t.zone_code AS zone,
       t.div_code AS division,
       CASE WHEN t.run_days = 'YYYYYYY' THEN 'Daily'
            ELSE (SELECT string_agg(d.day, ', ' ORDER BY d.n)
                    FROM unnest(ARRAY['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']) WITH ORDINALITY AS d(day, n)
                   WHERE substr(t.run_days, d.n::int, 1) = 'Y')
       END AS days_of_run,
       COALESCE(c.coach_count, 0) AS coaches,
       c.composition,
       CASE WHEN t.dynamic_fare THEN 'YES' ELSE 'NO' END AS dynamic_fare
  FROM trains t
  JOIN stations ss ON ss.station_code = t.src_station
  JOIN stations ds ON ds.station_code = t.dest_station
  LEFT JOIN LATERAL (
        SELECT count(*)::int AS coach_count,
               string_agg(tc.coach_id, ' ' ORDER BY tc.seq) AS composition
          FROM train_consist tc
         WHERE tc.train_no = t.train_no
       ) c ON TRUE
 WHERE (:zone::text IS NULL OR t.zone_code = :zone)
   AND (:division::text IS NULL OR t.div_code = :division)
   AND (:trainType::text IS NULL OR t.train_type = :trainType)
   AND {{scope}}
 ORDER BY t.train_no
