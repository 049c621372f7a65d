-- Cancellations after charting on one train run: passengers whose current (post-chart) status is CAN, with the
-- vacant berth they left and whether it went to PRS; plus berths recorded vacant for reason CANCELLED that no
-- charted passenger accounts for. Names masked. Every partitioned table is read within the date's run_id range
-- (run_id = day * 100000 + train_no), so only that date's partitions are planned.
SELECT 'PASSENGER' AS source,
       p.pnr,
       p.psgn_no,
       mask_name(p.name) AS psgn_name,
       p.class,
       p.booking_status,
       p.coach_id AS coach,
       p.berth_no,
       p.from_station,
       p.to_station,
       CASE WHEN vb.released_to_prs THEN 'YES' WHEN vb.run_id IS NULL THEN NULL ELSE 'NO' END AS released_to_prs,
       vb.released_at
  FROM train_runs tr
  JOIN passengers p ON p.run_id = tr.run_id AND p.current_status = 'CAN'
  LEFT JOIN vacant_berths vb
         ON vb.run_id = p.run_id AND vb.coach_id = p.coach_id AND vb.berth_no = p.berth_no
        AND vb.from_station = p.from_station AND vb.reason = 'CANCELLED'
        AND vb.run_id >= (:startDate::date - DATE '2000-01-01')::bigint * 100000 AND vb.run_id < (:startDate::date - DATE '2000-01-01' + 1)::bigint * 100000
 WHERE tr.train_no = :trainNo
   AND tr.start_date = :startDate::date
   AND p.run_id >= (:startDate::date - DATE '2000-01-01')::bigint * 100000 AND p.run_id < (:startDate::date - DATE '2000-01-01' + 1)::bigint * 100000
   AND (:cls::text IS NULL OR p.class = :cls)
   AND {{scope}}
UNION ALL
SELECT 'VACANT_BERTH',
       NULL,
       NULL,
       NULL,
       vb.class,
       NULL,
       vb.coach_id,
       vb.berth_no,
       vb.from_station,
       vb.to_station,
       CASE WHEN vb.released_to_prs THEN 'YES' ELSE 'NO' END,
       vb.released_at
  FROM train_runs tr
  JOIN vacant_berths vb ON vb.run_id = tr.run_id AND vb.reason = 'CANCELLED'
 WHERE tr.train_no = :trainNo
   AND tr.start_date = :startDate::date
   AND vb.run_id >= (:startDate::date - DATE '2000-01-01')::bigint * 100000 AND vb.run_id < (:startDate::date - DATE '2000-01-01' + 1)::bigint * 100000
   AND (:cls::text IS NULL OR vb.class = :cls)
   AND NOT EXISTS (
         SELECT 1 FROM passengers p2
          WHERE p2.run_id = vb.run_id AND p2.run_id >= (:startDate::date - DATE '2000-01-01')::bigint * 100000 AND p2.run_id < (:startDate::date - DATE '2000-01-01' + 1)::bigint * 100000
            AND p2.coach_id = vb.coach_id AND p2.berth_no = vb.berth_no
            AND p2.from_station = vb.from_station AND p2.current_status = 'CAN')
   AND {{scope}}
 ORDER BY coach, berth_no
