-- trainMannedWithHht: per train run of the date, reserved coaches vs coaches manned with an HHT
-- (run_coach_manning, migration 007: a coach is manned when a beat of the run worked with an HHT covers it).
-- HHTs and TTEs are counted once per run over the manned coaches' lists, hence count(DISTINCT ...) after unnest.
SELECT tr.train_no,
       t.name AS train_name,
       tr.start_date,
       tr.zone_code AS zone,
       tr.div_code AS division,
       m.reserved_coaches,
       m.manned_coaches,
       m.reserved_coaches - m.manned_coaches AS unmanned_coaches,
       m.hhts_used,
       m.ttes,
       round(100.0 * m.manned_coaches / NULLIF(m.reserved_coaches, 0), 1) AS manned_pct
  FROM train_runs tr
  JOIN trains t ON t.train_no = tr.train_no
  CROSS JOIN LATERAL (
        SELECT count(DISTINCT cm.coach_id)::int AS reserved_coaches,
               count(DISTINCT cm.coach_id) FILTER (WHERE cm.manned)::int AS manned_coaches,
               count(DISTINCT h.hht_id)::int AS hhts_used,
               count(DISTINCT te.tte_id)::int AS ttes
          FROM run_coach_manning(tr.run_id) cm
          LEFT JOIN LATERAL unnest(cm.hht_ids) AS h(hht_id) ON true
          LEFT JOIN LATERAL unnest(cm.tte_ids) AS te(tte_id) ON true
       ) m
 WHERE tr.start_date = :startDate::date
   AND (:zone::text IS NULL OR tr.zone_code = :zone)
   AND (:division::text IS NULL OR tr.div_code = :division)
   AND {{scope}}
 ORDER BY tr.div_code, tr.train_no
