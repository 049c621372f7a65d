-- A coach is manned when a beat worked with an HHT covers it; lobby users see coaches their lobby worked,
-- and the unmanned coaches of runs their lobby works first.
SELECT x.manning,
       count(*)::int AS coaches,
       round(100.0 * count(*) / sum(count(*)) OVER (), 1) AS share_pct
  FROM (
        SELECT CASE WHEN mb.lobby_code IS NOT NULL THEN 'Manned' ELSE 'Unmanned' END AS manning
          FROM run_coaches rc
          JOIN train_runs tr ON tr.run_id = rc.run_id
          LEFT JOIN LATERAL (
                SELECT b.lobby_code FROM beats b
                 WHERE b.run_id = rc.run_id AND b.device_id IS NOT NULL AND rc.coach_id = ANY (b.coaches)
                 ORDER BY b.beat_no LIMIT 1
               ) mb ON TRUE
          LEFT JOIN LATERAL (
                SELECT coalesce(mb.lobby_code, (SELECT b.lobby_code FROM beats b WHERE b.run_id = rc.run_id ORDER BY b.beat_no LIMIT 1)) AS lobby_code
               ) cl ON TRUE
         WHERE tr.start_date = :srcDate::date
           AND {{scope}}
       ) x
 GROUP BY x.manning
 ORDER BY x.manning
