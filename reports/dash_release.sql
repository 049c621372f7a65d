SELECT tr.train_no,
       t.name AS train_name,
       tr.start_date,
       count(*)::int AS vacant,
       (count(*) FILTER (WHERE vb.released_to_prs))::int AS released,
       (count(*) FILTER (WHERE vb.released_to_prs AND vb.rebooked))::int AS rebooked
  FROM vacant_berths vb
  JOIN train_runs tr ON tr.run_id = vb.run_id
  JOIN trains t ON t.train_no = tr.train_no
 WHERE tr.start_date = :srcDate::date
   AND {{scope}}
 GROUP BY tr.train_no, t.name, tr.start_date
 ORDER BY released DESC, tr.train_no
