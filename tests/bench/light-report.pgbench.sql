-- getVacantBerths at 50 connections: the statements the server sends PostgreSQL for one uncached call (the rows as JSON, the
-- answer's freshness), recorded from the app; tests/bench/load.ts runs them with pgbench -M prepared, the sample
-- filter's values given with -D (regenerate: npm run bench -- --load --write-pgbench-script).
SELECT count(*)::int AS n, coalesce(json_agg(j), '[]')::text AS rows, (SELECT coalesce(json_agg(s), '[]')::text FROM (SELECT b.beat_no, b.tte_id, b.device_id, floor(extract(epoch FROM b.sign_on_at) * 1000)::float8 AS sign_on_at, floor(extract(epoch FROM b.sign_off_at) * 1000)::float8 AS sign_off_at,
                floor(extract(epoch FROM greatest((SELECT max(rs.last_sync_at) FROM rollup_sync rs WHERE rs.run_id = b.run_id AND rs.tte_id = b.tte_id),
                         (SELECT max(ef.synced_at) FROM efts ef WHERE ef.run_id = b.run_id AND ef.beat_id = b.beat_id))) * 1000)::float8 AS last_sync
           FROM beats b JOIN train_runs tr ON tr.run_id = b.run_id
          WHERE tr.train_no = :s1p6 AND tr.start_date = :s1p7::date
          ORDER BY b.beat_no) s) AS side FROM (SELECT q."coach", q."berth_no", q."berth_type", q."class", q."vacant_from", q."vacant_to", q."reason", q."released_to_prs", CASE WHEN isfinite(q."released_at") THEN to_char(q."released_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24'||chr(58)||'MI'||chr(58)||'SS.MS"Z"') END AS "released_at", q."released_by", q."rebooked" FROM (SELECT * FROM (SELECT vb.coach_id AS coach,
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
 WHERE tr.train_no = :s1p1
   AND tr.start_date = :s1p2::date
   AND (NULL::text IS NULL OR vb.class = NULL)
   AND (NULL::text IS NULL OR vb.coach_id = NULL)
   AND (NULL::text IS NULL OR vb.reason = NULL)
   AND TRUE
 ORDER BY vb.coach_id, vb.berth_no
) q LIMIT 20001) q) j;
