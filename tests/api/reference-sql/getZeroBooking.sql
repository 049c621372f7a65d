-- The SQL getZeroBooking had before it was rewritten for national volumes (kept to compare rows with).
-- getZeroBooking: beats of the runs of the date whose Train Working Report has zero bookings checked: the TWR
-- is EMPTY, or the beat's HHT recorded no passenger as turned up (O) or not turned up (NT), nor gave one a berth
-- on board with no mark of their own (the allotment marks them O): the TWR's meaning of "checked".
WITH bt AS (
  SELECT b.beat_id, b.run_id, b.beat_no, b.tte_id, b.device_id, b.lobby_code, b.from_station, b.to_station,
         b.coaches, b.sign_on_at, b.sign_off_at, b.twr_status, tr.train_no, tr.start_date, tr.div_code
    FROM beats b
    JOIN train_runs tr ON tr.run_id = b.run_id
   WHERE tr.start_date = :startDate::date
     AND (:zone::text IS NULL OR b.zone_code = :zone)
     AND (:division::text IS NULL OR b.div_code = :division)
     AND {{scope}}
), ev AS (
  -- Only the date's partitions (run_id = day * 100000 + train_no, so a run date is one run_id range), and the
  -- mark looked for in the passenger's own run: without both, the NOT EXISTS was one hashed subplan over every
  -- event of the table.
  SELECT ce.beat_id, count(DISTINCT ce.psgn_id)::int AS checked
    FROM checking_events ce
   WHERE ce.run_id >= (:startDate::date - DATE '2000-01-01')::bigint * 100000
     AND ce.run_id < (:startDate::date - DATE '2000-01-01' + 1)::bigint * 100000
     AND ce.run_id IN (SELECT bt.run_id FROM bt)
     AND (ce.event_type IN ('O', 'NT')
          OR (ce.event_type = 'ALLOTTED' AND NOT EXISTS (
                SELECT 1 FROM checking_events m
                 WHERE m.run_id = ce.run_id
                   AND m.run_id >= (:startDate::date - DATE '2000-01-01')::bigint * 100000
                   AND m.run_id < (:startDate::date - DATE '2000-01-01' + 1)::bigint * 100000
                   AND m.psgn_id = ce.psgn_id AND m.event_type IN ('O', 'NT'))))
   GROUP BY ce.beat_id
), zero AS (
  SELECT bt.*, COALESCE(ev.checked, 0) AS checked
    FROM bt
    LEFT JOIN ev ON ev.beat_id = bt.beat_id
   WHERE bt.twr_status = 'EMPTY' OR COALESCE(ev.checked, 0) = 0
)
SELECT z.train_no,
       t.name AS train_name,
       z.start_date,
       z.div_code AS division,
       z.lobby_code AS lobby,
       z.beat_no,
       z.from_station,
       z.to_station,
       z.tte_id,
       te.name AS tte_name,
       z.device_id AS hht_id,
       array_to_string(z.coaches, ', ') AS coaches,
       (SELECT count(*)::int FROM passengers p
         WHERE p.run_id = z.run_id
           AND p.run_id >= (:startDate::date - DATE '2000-01-01')::bigint * 100000
           AND p.run_id < (:startDate::date - DATE '2000-01-01' + 1)::bigint * 100000
           AND p.coach_id = ANY (z.coaches) AND p.current_status <> 'CAN') AS booked_in_coaches,
       z.checked,
       z.twr_status,
       z.sign_on_at,
       z.sign_off_at
  FROM zero z
  JOIN trains t ON t.train_no = z.train_no
  JOIN ttes te ON te.tte_id = z.tte_id
 ORDER BY z.div_code, z.train_no, z.beat_no
