-- Coach Manning Summary per run date, zone and division: runs with reserved coaches, coaches, coaches manned.
SELECT tr.start_date, tr.zone_code, tr.div_code, count(*) FILTER (WHERE c.coaches > 0), sum(c.coaches), sum(c.manned)
  FROM train_runs tr
  CROSS JOIN LATERAL (
        SELECT count(*) AS coaches,
               count(*) FILTER (WHERE EXISTS (SELECT 1 FROM beats b WHERE b.run_id = rc.run_id AND b.device_id IS NOT NULL
                                                                        AND rc.coach_id = ANY (b.coaches))) AS manned
          FROM run_coaches rc WHERE rc.run_id = tr.run_id) c
 GROUP BY tr.start_date, tr.zone_code, tr.div_code
