-- Runs of the date with their reserved coaches, coaches manned with an HHT and HHTs used, from the manning rollup
-- (migration 015). Lobby users see the runs their lobby works first (the lobby of beat 1).
SELECT tr.train_no,
       t.name AS train_name,
       tr.start_date,
       ob.reserved_coaches,
       ob.manned_coaches,
       ob.hhts_used,
       CASE WHEN ob.manned THEN 'YES' ELSE 'NO' END AS manned,
       CASE WHEN ob.manned THEN 1 ELSE 0 END AS is_manned
  FROM rollup_run_manning ob
  JOIN train_runs tr ON tr.run_id = ob.run_id
  JOIN trains t ON t.train_no = tr.train_no
 WHERE ob.start_date = :srcDate::date
   AND {{scope}}
 ORDER BY tr.train_no
