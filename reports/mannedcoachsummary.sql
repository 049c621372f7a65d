-- coachManningSummary: reserved coaches manned with an HHT per zone/division and run date over a range, from the
-- manning day rollup (migration 021: rollup_run_manning summed per run date and division, ~70 rows a national day,
-- so the answer does not grow with the day's trains; a coach is manned as in run_coach_manning). One row per
-- division and day so that each row drills down to that day's Train_Manned_with_HHT.
SELECT tr.zone_code AS zone,
       tr.div_code AS division,
       tr.start_date AS run_date,
       sum(tr.runs_with_coaches)::int AS train_runs,
       sum(tr.coaches)::int AS coaches,
       sum(tr.manned)::int AS manned,
       sum(tr.coaches - tr.manned)::int AS unmanned,
       round(100.0 * sum(tr.manned) / NULLIF(sum(tr.coaches), 0), 1) AS manned_pct
  FROM rollup_manning_day tr
 WHERE tr.start_date BETWEEN :start_date::date AND :end_date::date
   AND (:zone::text IS NULL OR tr.zone_code = :zone)
   AND (:division::text IS NULL OR tr.div_code = :division)
   AND {{scope}}
 GROUP BY tr.zone_code, tr.div_code, tr.start_date
 HAVING sum(tr.coaches) > 0
 ORDER BY tr.start_date DESC, tr.zone_code, tr.div_code
