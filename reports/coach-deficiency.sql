-- Coach deficiencies reported by TTEs on train runs started in the date range (train_runs start_date index).
SELECT tr.train_no,
       tr.start_date,
       cd.coach_id AS coach,
       rc.class,
       cd.category,
       cd.description,
       cd.station_code AS station,
       cd.reported_at,
       cd.tte_id,
       t.name AS tte_name,
       cd.status,
       cd.closed_at,
       round(extract(epoch FROM cd.closed_at - cd.reported_at) / 3600, 1) AS hours_to_close,
       tr.div_code
  FROM train_runs tr
  JOIN coach_deficiencies cd ON cd.run_id = tr.run_id
  LEFT JOIN run_coaches rc ON rc.run_id = cd.run_id AND rc.coach_id = cd.coach_id
  LEFT JOIN ttes t ON t.tte_id = cd.tte_id
 WHERE tr.start_date BETWEEN :start_date::date AND :end_date::date
   AND (:zone::text IS NULL OR tr.zone_code = :zone)
   AND (:division::text IS NULL OR tr.div_code = :division)
   AND (:trainNo::text IS NULL OR tr.train_no = :trainNo)
   AND (:category::text IS NULL OR cd.category = :category)
   AND (:status::text IS NULL OR cd.status = :status)
   AND {{scope}}
 ORDER BY cd.reported_at, cd.deficiency_id
