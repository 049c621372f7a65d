-- Lobby users see the runs their lobby works first (the lobby of beat 1).
SELECT tr.train_no,
       t.name AS train_name,
       tr.start_date,
       (SELECT count(*) FROM run_coaches rc WHERE rc.run_id = tr.run_id)::int AS reserved_coaches,
       (SELECT count(*) FROM run_coaches rc
         WHERE rc.run_id = tr.run_id
           AND EXISTS (SELECT 1 FROM beats b WHERE b.run_id = tr.run_id AND b.device_id IS NOT NULL AND rc.coach_id = ANY (b.coaches)))::int AS manned_coaches,
       (SELECT count(DISTINCT b.device_id) FROM beats b WHERE b.run_id = tr.run_id)::int AS hhts_used,
       CASE WHEN EXISTS (SELECT 1 FROM beats b WHERE b.run_id = tr.run_id AND b.device_id IS NOT NULL) THEN 'YES' ELSE 'NO' END AS manned,
       CASE WHEN EXISTS (SELECT 1 FROM beats b WHERE b.run_id = tr.run_id AND b.device_id IS NOT NULL) THEN 1 ELSE 0 END AS is_manned
  FROM train_runs tr
  JOIN trains t ON t.train_no = tr.train_no
  LEFT JOIN LATERAL (
        SELECT b.lobby_code FROM beats b WHERE b.run_id = tr.run_id ORDER BY b.beat_no LIMIT 1
       ) ob ON TRUE
 WHERE tr.start_date = :srcDate::date
   AND {{scope}}
 ORDER BY tr.train_no
