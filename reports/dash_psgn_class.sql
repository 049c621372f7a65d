SELECT p.class,
       count(*)::int AS passengers,
       (count(*) FILTER (WHERE p.mark = 'O'))::int AS turned_up,
       round(100.0 * count(*) / sum(count(*)) OVER (), 1) AS share_pct
  FROM passengers p
  JOIN train_runs tr ON tr.run_id = p.run_id
 WHERE tr.start_date = :srcDate::date
   AND p.current_status <> 'CAN'
   AND {{scope}}
 GROUP BY p.class
 ORDER BY passengers DESC
