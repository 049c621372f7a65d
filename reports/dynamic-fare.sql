-- Flexi fare per class of one train run: base fare, fare of the last berth sold, slab reached and share sold.
SELECT df.class,
       df.base_fare,
       df.last_fare,
       round(df.last_fare / NULLIF(df.base_fare, 0), 2) AS fare_multiplier,
       df.last_fare - df.base_fare AS surge,
       df.slab,
       round(df.share_sold_pct, 1) AS share_sold_pct,
       t.train_type
  FROM train_runs tr
  JOIN trains t ON t.train_no = tr.train_no
  JOIN dynamic_fares df ON df.run_id = tr.run_id
 WHERE tr.train_no = :trainNo
   AND tr.start_date = :startDate::date
   AND (:cls::text IS NULL OR df.class = :cls)
   AND {{scope}}
 ORDER BY CASE df.class WHEN '1A' THEN 1 WHEN 'EC' THEN 2 WHEN '2A' THEN 3 WHEN '3A' THEN 4 WHEN 'CC' THEN 5
                        WHEN '3E' THEN 6 WHEN 'SL' THEN 7 ELSE 8 END
