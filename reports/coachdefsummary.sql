-- CoachDeficiencySummary: coach deficiencies reported on runs in the date range per division, train and category.
SELECT cd.zone_code AS zone,
       cd.div_code AS division,
       tr.train_no,
       t.name AS train_name,
       cd.category,
       count(*)::int AS reported,
       count(*) FILTER (WHERE cd.status = 'OPEN')::int AS open,
       count(*) FILTER (WHERE cd.status = 'CLOSED')::int AS closed,
       round(avg(extract(epoch FROM cd.closed_at - cd.reported_at) / 3600.0)
               FILTER (WHERE cd.status = 'CLOSED'), 1) AS avg_hours_to_close,
       :start_date::date AS from_date,
       :end_date::date AS to_date
  FROM coach_deficiencies cd
  JOIN train_runs tr ON tr.run_id = cd.run_id
  JOIN trains t ON t.train_no = tr.train_no
 WHERE tr.start_date BETWEEN :start_date::date AND :end_date::date
   AND (:zone::text IS NULL OR cd.zone_code = :zone)
   AND (:division::text IS NULL OR cd.div_code = :division)
   AND (:trainNo::text IS NULL OR tr.train_no = :trainNo)
   AND (:category::text IS NULL OR cd.category = :category)
   AND {{scope}}
 GROUP BY cd.zone_code, cd.div_code, tr.train_no, t.name, cd.category
 ORDER BY cd.zone_code, cd.div_code, tr.train_no, cd.category
