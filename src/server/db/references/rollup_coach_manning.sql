-- key: run_id
-- Coaches per run, lobby and manned: a manned coach counts for the lobby of the first beat with an HHT covering it,
-- an unmanned one for the lobby of the run's first beat.
SELECT c.run_id, c.start_date, c.zone_code, c.div_code, COALESCE(c.manned_lobby, c.first_lobby), c.manned_lobby IS NOT NULL, count(*)
  FROM (SELECT rc.run_id, tr.start_date, tr.zone_code, tr.div_code,
               (SELECT b.lobby_code FROM beats b WHERE b.run_id = rc.run_id AND b.device_id IS NOT NULL AND rc.coach_id = ANY (b.coaches)
                 ORDER BY b.beat_no LIMIT 1) AS manned_lobby,
               (SELECT b.lobby_code FROM beats b WHERE b.run_id = rc.run_id ORDER BY b.beat_no LIMIT 1) AS first_lobby
          FROM run_coaches rc
          JOIN train_runs tr ON tr.run_id = rc.run_id
         WHERE rc.run_id >= $1 AND rc.run_id < $2) c
 GROUP BY 1, 2, 3, 4, 5, 6
