-- Passengers per run of the date and their marks, from the passenger rollup (migration 014).
SELECT tr.train_no,
       t.name AS train_name,
       tr.start_date,
       sum(p.passengers)::int AS passengers,
       sum(p.turned_up)::int AS turned_up,
       sum(p.not_turned_up)::int AS not_turned_up,
       sum(p.not_marked)::int AS not_marked
  FROM rollup_run_passengers p
  JOIN train_runs tr ON tr.run_id = p.run_id
  JOIN trains t ON t.train_no = tr.train_no
 WHERE p.start_date = :srcDate::date
   AND {{scope}}
 GROUP BY tr.train_no, t.name, tr.start_date
 ORDER BY tr.train_no
