SELECT tr.train_no,
       t.name AS train_name,
       tr.start_date,
       (count(*) FILTER (WHERE ra.prev_status LIKE 'RAC%'))::int AS rac_cleared,
       (count(*) FILTER (WHERE ra.prev_status NOT LIKE 'RAC%'))::int AS wl_cleared,
       count(*)::int AS total_cleared
  FROM reallocations ra
  JOIN train_runs tr ON tr.run_id = ra.run_id
  JOIN trains t ON t.train_no = tr.train_no
 WHERE tr.start_date = :srcDate::date
   AND {{scope}}
 GROUP BY tr.train_no, t.name, tr.start_date
 ORDER BY total_cleared DESC, tr.train_no
