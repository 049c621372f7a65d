-- A coach is manned when a beat worked with an HHT covers it; lobby users see coaches their lobby worked,
-- and the unmanned coaches of runs their lobby works first. From the coach manning rollup (migration 015).
SELECT CASE WHEN cl.manned THEN 'Manned' ELSE 'Unmanned' END AS manning,
       sum(cl.coaches)::int AS coaches,
       round(100.0 * sum(cl.coaches) / sum(sum(cl.coaches)) OVER (), 1) AS share_pct
  FROM rollup_coach_manning cl
  JOIN train_runs tr ON tr.run_id = cl.run_id
 WHERE cl.start_date = :srcDate::date
   AND {{scope}}
 GROUP BY cl.manned
 ORDER BY manning
