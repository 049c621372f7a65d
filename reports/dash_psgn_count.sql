SELECT tr.train_no,
       t.name AS train_name,
       tr.start_date,
       count(*)::int AS passengers,
       (count(*) FILTER (WHERE p.mark = 'O'))::int AS turned_up,
       (count(*) FILTER (WHERE p.mark = 'NT'))::int AS not_turned_up,
       (count(*) FILTER (WHERE p.mark IS NULL))::int AS not_marked
  FROM passengers p
  JOIN train_runs tr ON tr.run_id = p.run_id
  JOIN trains t ON t.train_no = tr.train_no
 WHERE tr.start_date = :srcDate::date
   AND p.current_status <> 'CAN'
   AND {{scope}}
 GROUP BY tr.train_no, t.name, tr.start_date
 ORDER BY tr.train_no
