-- The Berth Allotment Anomaly rows (reports/bertallotmentanomaly.sql) of the runs lo <= run_id < hi: each anomalous
-- allotment with its anomaly, the conflicting PNR (and the conflicting allotment, for a double allotment of two
-- allotments, so a report can keep it to the user's scope) and the detail. The definition over the raw rows, used by
-- hht_fill_alloc_anomalies (rollup_allot_anomalies) and as that rollup's reference query.
--   DOUBLE_ALLOTMENT          the berth went to two passengers on overlapping segments (another allotment, or a
--                             confirmed passenger who turned up and neither shifted nor got down).
--   ALLOTTED_WITHIN_NT_GRACE  the berth of a holder marked NT was allotted while it was still protected: before
--                             the holder was marked NT at all, or before the grace ended. The grace (the holder may
--                             still board further on) lasts until the train departs the next stop after the
--                             holder's boarding station, but at most 60 minutes after the departure from the
--                             boarding station, whichever comes first. Departures are the timetable's (stop_departure(),
--                             IST, day of journey) plus the run's share of its running delay (delay_min spread
--                             evenly along the stops), since actual departures are not recorded.
--   OUT_OF_PRIORITY           a waitlisted passenger was allotted while a turned-up RAC passenger of the same class,
--                             travelling on an overlapping segment, had not yet been allotted (RAC comes first).
-- Segments compare stop sequence numbers of the train's timetable. Reads of the run-partitioned tables name the run
-- range, so only its partitions are read. Called through hht_alloc_anomalies, which picks how it is planned.
CREATE OR REPLACE FUNCTION hht_alloc_anomalies_q(lo bigint, hi bigint)
RETURNS TABLE (run_id bigint, realloc_id bigint, anomaly text, other_pnr text, other_realloc_id bigint, detail text)
LANGUAGE sql STABLE AS $fn$
WITH day_ra AS MATERIALIZED (
  SELECT r.run_id, r.psgn_id, r.coach_id, r.berth_no, r.prev_status
    FROM reallocations r
   WHERE r.run_id >= lo AND r.run_id < hi
), pp AS MATERIALIZED (
  -- The range's passengers the rules look at, each found by index: those holding a berth that was allotted (by
  -- berth: holders), and the RAC passengers of runs with a waitlisted allotment (rac): those charted RAC and given a
  -- berth on board (by id) and those still RAC. A pass over a date's partition read 2 M passengers nationally for
  -- some 40,000; OFFSET 0 keeps each lookup a lookup (the planner would hash the whole partition instead).
  SELECT x.* FROM (SELECT DISTINCT run_id, psgn_id FROM day_ra
                    WHERE prev_status LIKE 'RAC%' AND run_id IN (SELECT w.run_id FROM day_ra w WHERE w.prev_status LIKE '%WL%')) r
   CROSS JOIN LATERAL (SELECT p.run_id, p.psgn_id, p.pnr, p.class, p.name, p.mark, p.current_status, p.coach_id, p.berth_no, p.from_station, p.to_station FROM passengers p
                        WHERE p.run_id = r.run_id AND p.psgn_id = r.psgn_id
                          AND p.run_id >= lo AND p.run_id < hi OFFSET 0) x
  UNION
  SELECT x.* FROM (SELECT DISTINCT run_id, coach_id, berth_no FROM day_ra) r
   CROSS JOIN LATERAL (SELECT p.run_id, p.psgn_id, p.pnr, p.class, p.name, p.mark, p.current_status, p.coach_id, p.berth_no, p.from_station, p.to_station FROM passengers p
                        WHERE p.run_id = r.run_id AND p.coach_id = r.coach_id AND p.berth_no = r.berth_no
                          AND p.run_id >= lo AND p.run_id < hi OFFSET 0) x
  UNION
  SELECT x.* FROM (SELECT DISTINCT run_id FROM day_ra WHERE prev_status LIKE '%WL%') r
   CROSS JOIN LATERAL (SELECT p.run_id, p.psgn_id, p.pnr, p.class, p.name, p.mark, p.current_status, p.coach_id, p.berth_no, p.from_station, p.to_station FROM passengers p
                        WHERE p.run_id = r.run_id AND p.current_status LIKE 'RAC%' AND p.mark = 'O'
                          AND p.run_id >= lo AND p.run_id < hi OFFSET 0) x
), seqs AS MATERIALIZED (
  -- First and last stop sequence of each station of the range's trains with an allotment: hashed once for the
  -- allotments instead of two index lookups each. Holders and RAC passengers keep their lookups: the planner expects
  -- one row of those CTEs and would scan this one per row.
  SELECT s.train_no, s.station_code, min(s.seq) AS first_seq, max(s.seq) AS last_seq
    FROM train_stops s
   WHERE s.train_no IN (SELECT tr.train_no FROM train_runs tr WHERE tr.run_id IN (SELECT d.run_id FROM day_ra d))
   GROUP BY s.train_no, s.station_code
), ra AS MATERIALIZED (
  SELECT r.realloc_id, r.run_id, r.psgn_id, r.pnr, r.prev_status, r.coach_id, r.berth_no,
         r.from_station, r.to_station, r.allotted_at, r.tte_id,
         tr.train_no, tr.start_date, fs.first_seq AS from_seq, ts.last_seq AS to_seq,
         -- The allotted passenger's class by primary key, for the waitlisted allotments only (the RAC priority
         -- compares classes).
         CASE WHEN r.prev_status LIKE '%WL%' THEN (
           SELECT p.class FROM passengers p
            WHERE p.run_id = r.run_id AND p.psgn_id = r.psgn_id
              AND p.run_id >= lo AND p.run_id < hi) END AS wl_class
    FROM reallocations r
    JOIN train_runs tr ON tr.run_id = r.run_id
    LEFT JOIN seqs fs ON fs.train_no = tr.train_no AND fs.station_code = r.from_station
    LEFT JOIN seqs ts ON ts.train_no = tr.train_no AND ts.station_code = r.to_station
   WHERE r.run_id >= lo AND r.run_id < hi
), holders AS MATERIALIZED (
  -- Passengers holding a berth that some allotment of the run was made to (other than the allotted one).
  SELECT a.realloc_id, p.psgn_id, p.pnr, p.mark,
         (SELECT min(s.seq) FROM train_stops s WHERE s.train_no = a.train_no AND s.station_code = p.from_station) AS from_seq,
         (SELECT max(s.seq) FROM train_stops s WHERE s.train_no = a.train_no AND s.station_code = p.to_station) AS to_seq
    FROM ra a
    JOIN pp p ON p.run_id = a.run_id AND p.coach_id = a.coach_id AND p.berth_no = a.berth_no
   WHERE p.psgn_id <> a.psgn_id
     AND p.current_status <> 'CAN'
), first_allot AS MATERIALIZED (
  -- Each passenger's first allotment on the runs with a waitlisted allotment: its status before (RAC as charted) and time.
  SELECT DISTINCT ON (r1.run_id, r1.psgn_id) r1.run_id, r1.psgn_id, r1.prev_status, r1.allotted_at
    FROM reallocations r1
   WHERE r1.run_id >= lo AND r1.run_id < hi
     AND r1.run_id IN (SELECT ra.run_id FROM ra WHERE ra.prev_status LIKE '%WL%')
   ORDER BY r1.run_id, r1.psgn_id, r1.allotted_at
), rac AS MATERIALIZED (
  -- Turned-up RAC passengers of the runs with a waitlisted allotment, once per run (not once per allotment).
  -- RAC as charted: a passenger given a berth later reads CNF/coach/berth now, their reallocation keeps the RAC.
  SELECT p.run_id, p.psgn_id, p.pnr, p.class, coalesce(pa.prev_status, p.current_status) AS charted_status,
         pa.allotted_at AS first_allotted_at,
         (SELECT min(s.seq) FROM train_stops s WHERE s.train_no = tr.train_no AND s.station_code = p.from_station) AS from_seq,
         (SELECT max(s.seq) FROM train_stops s WHERE s.train_no = tr.train_no AND s.station_code = p.to_station) AS to_seq
    FROM pp p
    JOIN train_runs tr ON tr.run_id = p.run_id
    LEFT JOIN first_allot pa ON pa.run_id = p.run_id AND pa.psgn_id = p.psgn_id
   WHERE p.mark = 'O'
     -- IS TRUE keeps this a hashed lookup: as a join the planner expected one run and rescanned them per passenger.
     AND (p.run_id IN (SELECT ra.run_id FROM ra WHERE ra.prev_status LIKE '%WL%')) IS TRUE
     AND coalesce(pa.prev_status, p.current_status) LIKE 'RAC%'
), anomalies AS MATERIALIZED (
  SELECT a.realloc_id, 'DOUBLE_ALLOTMENT' AS anomaly, b.pnr AS other_pnr, b.realloc_id AS other_realloc_id,
         'Also allotted to PNR ' || b.pnr || ' for ' || b.from_station || '-' || b.to_station AS detail
    FROM ra a
    JOIN ra b ON b.run_id = a.run_id AND b.coach_id = a.coach_id AND b.berth_no = a.berth_no AND b.psgn_id <> a.psgn_id
   WHERE a.from_seq < b.to_seq AND b.from_seq < a.to_seq
  UNION ALL
  SELECT a.realloc_id, 'DOUBLE_ALLOTMENT', h.pnr, NULL::bigint,
         'Berth held by turned-up passenger PNR ' || h.pnr
    FROM ra a
    JOIN holders h ON h.realloc_id = a.realloc_id
   WHERE h.mark = 'O'
     AND a.from_seq < h.to_seq AND h.from_seq < a.to_seq
     AND NOT EXISTS (SELECT 1 FROM reallocations r2 WHERE r2.run_id = a.run_id AND r2.psgn_id = h.psgn_id)
     AND NOT EXISTS (SELECT 1 FROM checking_events ce
                      WHERE ce.run_id = a.run_id AND ce.run_id >= lo AND ce.run_id < hi
                        AND ce.event_type IN ('SHIFTED', 'GOT_DOWN') AND ce.psgn_id = h.psgn_id)
  UNION ALL
  SELECT x.realloc_id, 'ALLOTTED_WITHIN_NT_GRACE', x.pnr, NULL::bigint,
         'PNR ' || x.pnr || ' ' ||
         CASE WHEN x.allotted_at < x.nt_at THEN 'was marked NT only after the allotment'
              ELSE 'marked NT; berth protected until ' || to_char(g.grace_end AT TIME ZONE 'Asia/Kolkata', 'HH24:MI') ||
                   ' (' || g.grace_rule || '), allotted ' ||
                   round(extract(epoch FROM g.grace_end - x.allotted_at) / 60.0)::int || ' min early' END
    FROM (
          -- The allotments' holders marked NT (OFFSET 0: the stops below are looked up for these only).
          SELECT a.realloc_id, a.run_id, a.train_no, a.start_date, a.allotted_at, h.pnr, h.from_seq, n.nt_at
            FROM ra a
            JOIN holders h ON h.realloc_id = a.realloc_id
            CROSS JOIN LATERAL (
                  SELECT min(ce.device_time) AS nt_at
                    FROM checking_events ce
                   WHERE ce.run_id = a.run_id AND ce.run_id >= lo AND ce.run_id < hi AND ce.event_type = 'NT' AND ce.psgn_id = h.psgn_id
                 ) n
           WHERE n.nt_at IS NOT NULL
             AND a.from_seq < h.to_seq AND h.from_seq < a.to_seq
          OFFSET 0) x
    -- The holder's boarding stop and the next one, by the train_stops primary key, with their estimated actual
    -- departures (the timetable's, plus the run's share of its running delay, spread evenly along the stops). A window
    -- over every stop of the runs, joined, was planned as a nested loop per holder when the planner expected one.
    CROSS JOIN LATERAL (
          SELECT s.station_code, nx.station_code AS next_station,
                 stop_departure(x.start_date, s.day_no, s.arr_time, s.dep_time)
                   + make_interval(mins => round(r.delay_min * (s.seq - 1)::numeric / greatest(r.last_seq - 1, 1))::int) AS dep_at,
                 stop_departure(x.start_date, nx.day_no, nx.arr_time, nx.dep_time)
                   + make_interval(mins => round(r.delay_min * (nx.seq - 1)::numeric / greatest(r.last_seq - 1, 1))::int) AS next_dep_at
            FROM (SELECT tr.delay_min, (SELECT max(s2.seq) FROM train_stops s2 WHERE s2.train_no = x.train_no) AS last_seq
                    FROM train_runs tr WHERE tr.run_id = x.run_id) r
            JOIN train_stops s ON s.train_no = x.train_no AND s.seq = x.from_seq
            JOIN LATERAL (SELECT s3.seq, s3.station_code, s3.day_no, s3.arr_time, s3.dep_time
                            FROM train_stops s3
                           WHERE s3.train_no = x.train_no AND s3.seq > s.seq
                           ORDER BY s3.seq LIMIT 1) nx ON true
         ) bd
    CROSS JOIN LATERAL (
          SELECT CASE WHEN bd.next_dep_at < bd.dep_at + interval '60 minutes' THEN bd.next_dep_at
                      ELSE bd.dep_at + interval '60 minutes' END AS grace_end,
                 CASE WHEN bd.next_dep_at < bd.dep_at + interval '60 minutes' THEN 'departure from ' || bd.next_station
                      ELSE '60 min after departure from ' || bd.station_code END AS grace_rule
         ) g
   WHERE x.allotted_at < x.nt_at OR x.allotted_at < g.grace_end
  UNION ALL
  -- The first (by passenger id) turned-up RAC passenger of the class on an overlapping segment who had not been
  -- allotted yet when the waitlisted one was: a hash join by run and class, not a scan of every RAC row per allotment.
  SELECT q.realloc_id, 'OUT_OF_PRIORITY', q.pnr, NULL::bigint,
         'RAC passenger PNR ' || q.pnr || ' (' || q.charted_status || ') was still waiting'
    FROM (SELECT DISTINCT ON (a.realloc_id) a.realloc_id, rc.pnr, rc.charted_status
            FROM ra a
            JOIN rac rc ON rc.run_id = a.run_id AND rc.class = a.wl_class
           WHERE a.prev_status LIKE '%WL%'
             AND rc.psgn_id <> a.psgn_id
             AND rc.from_seq < a.to_seq
             AND rc.to_seq > a.from_seq
             AND (rc.first_allotted_at IS NULL OR rc.first_allotted_at > a.allotted_at)
           ORDER BY a.realloc_id, rc.psgn_id) q
)
SELECT a.run_id, an.realloc_id, an.anomaly, an.other_pnr, an.other_realloc_id, an.detail
  FROM anomalies an
  JOIN ra a ON a.realloc_id = an.realloc_id
$fn$;
