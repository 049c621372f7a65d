-- getVacantBerths at 50 connections, as the server runs it uncached: tests/bench/load.ts runs it with pgbench -M prepared,
-- the sample filter's values given with -D (regenerate: npm run bench -- --load --write-pgbench-script).
SELECT * FROM (SELECT vb.coach_id AS coach,
       vb.berth_no,
       vb.berth_type,
       vb.class,
       vb.from_station AS vacant_from,
       vb.to_station AS vacant_to,
       vb.reason,
       CASE WHEN vb.released_to_prs THEN 'YES' ELSE 'NO' END AS released_to_prs,
       vb.released_at,
       vb.released_by,
       CASE WHEN vb.rebooked THEN 'YES' ELSE 'NO' END AS rebooked
  FROM vacant_berths vb
  JOIN train_runs tr ON tr.run_id = vb.run_id
 WHERE tr.train_no = :p1
   AND tr.start_date = :p2::date
   AND (NULL::text IS NULL OR vb.class = NULL)
   AND (NULL::text IS NULL OR vb.coach_id = NULL)
   AND (NULL::text IS NULL OR vb.reason = NULL)
   AND TRUE
 ORDER BY vb.coach_id, vb.berth_no
) q LIMIT 20001;
