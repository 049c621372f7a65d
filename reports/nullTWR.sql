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
), zero AS MATERIALIZED (
  -- Beats of the date with no O/NT mark (or an EMPTY TWR): one probe per beat by (run, type, beat), since it only
  -- needs "is there one" (a pass over the date's partition read a million marks nationally). Inside the OR the
  -- NOT EXISTS stays a per-beat probe; materialized, so the beats are counted before the lookups below are planned.
  SELECT bt.*
    FROM bt
   WHERE bt.twr_status = 'EMPTY'
      OR NOT EXISTS (SELECT 1 FROM checking_events ce
                      WHERE ce.run_id = bt.run_id
                        AND ce.run_id >= (:startDate::date - DATE '2000-01-01')::bigint * 100000
                        AND ce.run_id < (:startDate::date - DATE '2000-01-01' + 1)::bigint * 100000
                        AND ce.event_type IN ('O', 'NT') AND ce.beat_id = bt.beat_id)
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
       -- Passengers not cancelled in the beat's coaches, from the per-coach rollup (a few rows per beat; counting the
       -- passengers read some 220 per listed beat).
       (SELECT COALESCE(sum(cb.booked), 0)::int FROM rollup_coach_booked cb
         WHERE cb.run_id = z.run_id AND cb.coach_id = ANY (z.coaches)) AS booked_in_coaches,
       -- Passengers checked: 0 for a beat listed for having none; an EMPTY TWR's beat may have some, counted here.
       CASE WHEN z.twr_status <> 'EMPTY' THEN 0 ELSE (
         SELECT count(DISTINCT ce.psgn_id)::int FROM checking_events ce
          WHERE ce.run_id = z.run_id AND ce.run_id >= (:startDate::date - DATE '2000-01-01')::bigint * 100000
                                     AND ce.run_id < (:startDate::date - DATE '2000-01-01' + 1)::bigint * 100000 AND ce.beat_id = z.beat_id
            AND (ce.event_type IN ('O', 'NT')
                 OR (ce.event_type = 'ALLOTTED' AND NOT EXISTS (
                       SELECT 1 FROM checking_events m
                        WHERE m.run_id = ce.run_id AND m.run_id >= (:startDate::date - DATE '2000-01-01')::bigint * 100000
                                                   AND m.run_id < (:startDate::date - DATE '2000-01-01' + 1)::bigint * 100000
                          AND m.psgn_id = ce.psgn_id AND m.event_type IN ('O', 'NT'))))) END AS checked,
       z.twr_status,
       z.sign_on_at,
       z.sign_off_at
  FROM zero z
  JOIN trains t ON t.train_no = z.train_no
  JOIN ttes te ON te.tte_id = z.tte_id
  -- A beat with no O/NT mark is still checked if it gave a berth on board to a passenger with no mark of their own
  -- in the run: the run's few allotments, by the (run_id, event_type) index (LIMIT 1: one lookup per beat).
  LEFT JOIN LATERAL (
        SELECT true AS hit
          FROM checking_events a
         WHERE a.run_id = z.run_id AND a.run_id >= (:startDate::date - DATE '2000-01-01')::bigint * 100000
                                   AND a.run_id < (:startDate::date - DATE '2000-01-01' + 1)::bigint * 100000
           AND a.event_type = 'ALLOTTED' AND a.beat_id = z.beat_id
           AND NOT EXISTS (
                 SELECT 1 FROM checking_events m
                  WHERE m.run_id = a.run_id AND m.run_id >= (:startDate::date - DATE '2000-01-01')::bigint * 100000
                                            AND m.run_id < (:startDate::date - DATE '2000-01-01' + 1)::bigint * 100000
                    AND m.psgn_id = a.psgn_id AND m.event_type IN ('O', 'NT'))
         LIMIT 1
       ) allotted ON true
 WHERE z.twr_status = 'EMPTY' OR allotted.hit IS NULL
 ORDER BY z.div_code, z.train_no, z.beat_no
