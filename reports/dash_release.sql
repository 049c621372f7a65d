-- Vacant berths of the date's runs and those released to PRS, from the vacancy rollup (migration 014).
SELECT tr.train_no,
       t.name AS train_name,
       tr.start_date,
       sum(vb.vacant)::int AS vacant,
       sum(vb.released)::int AS released,
       sum(vb.rebooked)::int AS rebooked
  FROM rollup_run_vacancies vb
  JOIN train_runs tr ON tr.run_id = vb.run_id
  JOIN trains t ON t.train_no = tr.train_no
 WHERE vb.start_date = :srcDate::date
   AND {{scope}}
 GROUP BY tr.train_no, t.name, tr.start_date
 ORDER BY released DESC, tr.train_no
