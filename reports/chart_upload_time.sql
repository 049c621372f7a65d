-- Chart preparation and HHT download per train run started on a date (train_runs (start_date, div_code) index).
-- Delays are minutes from each chart to the download on the HHT; a download after chart 2 is on time when
-- within 30 minutes of it.
SELECT tr.train_no,
       t.name AS train_name,
       tr.start_date,
       t.src_station,
       src.dep_time AS scheduled_departure,
       tr.chart1_at,
       tr.chart2_at,
       tr.hht_download_at,
       round(extract(epoch FROM tr.hht_download_at - tr.chart1_at) / 60)::int AS delay_chart1_min,
       round(extract(epoch FROM tr.hht_download_at - tr.chart2_at) / 60)::int AS delay_chart2_min,
       CASE
         WHEN tr.chart1_at IS NULL THEN 'CHART PENDING'
         WHEN tr.hht_download_at IS NULL THEN 'NOT LOADED'
         WHEN tr.chart2_at IS NULL OR tr.hht_download_at <= tr.chart2_at + interval '30 minutes' THEN 'ON TIME'
         ELSE 'DELAYED'
       END AS load_status,
       tr.zone_code,
       tr.div_code
  FROM train_runs tr
  JOIN trains t ON t.train_no = tr.train_no
  LEFT JOIN train_stops src ON src.train_no = tr.train_no AND src.seq = 1
 WHERE tr.start_date = :startDate::date
   AND (:zone::text IS NULL OR tr.zone_code = :zone)
   AND (:division::text IS NULL OR tr.div_code = :division)
   AND (:trainNo::text IS NULL OR tr.train_no = :trainNo)
   AND {{scope}}
 ORDER BY src.dep_time NULLS LAST, tr.train_no
