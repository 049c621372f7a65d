-- The SQL trainWorkingReport had before it was rewritten for national volumes (kept to compare rows with).
-- TTE working summary, one row per beat (TTE on a train run), for run dates in the range.
-- Runs come from the train_runs (start_date, div_code) index; event and EFT counts are grouped once per beat
-- (LEFT JOINs on the grouped key, so the count(*) of server paging does not compute them).
-- Checked: distinct passengers the beat marked O or NT, and those it gave a berth on board with no O/NT mark of
-- their own (the allotment marks them O): the run's checked passengers are its passengers with a mark. NT: passengers
-- whose latest mark by device time is the beat's NT (one marked NT and later O is not NT).
WITH runs AS (
  SELECT tr.run_id, tr.train_no, tr.start_date
    FROM train_runs tr
   WHERE tr.start_date BETWEEN :start_date::date AND :end_date::date
     AND (:trainNo::text IS NULL OR tr.train_no = :trainNo)
)
SELECT b.tte_id,
       t.name AS tte_name,
       t.designation,
       b.lobby_code,
       b.div_code,
       r.train_no,
       r.start_date,
       b.beat_no,
       b.from_station AS beat_from,
       b.to_station AS beat_to,
       array_to_string(b.coaches, ', ') AS coaches,
       cardinality(b.coaches) AS coach_count,
       COALESCE(ev.checked, 0) AS checked,
       COALESCE(ev.nt, 0) AS nt,
       COALESCE(ev.allotted, 0) AS allotted,
       COALESCE(ef.eft_count, 0) AS eft_count,
       COALESCE(ef.eft_amount, 0) AS eft_amount,
       b.sign_on_at,
       b.sign_off_at,
       b.twr_status,
       b.device_id,
       b.trip_id,
       COALESCE(ist_date(b.sign_off_at), r.start_date + 1) AS eft_until
  FROM runs r
  JOIN beats b ON b.run_id = r.run_id
  JOIN ttes t ON t.tte_id = b.tte_id
  LEFT JOIN (
        SELECT ce.beat_id,
               count(DISTINCT ce.psgn_id) FILTER (WHERE ce.event_type IN ('O', 'NT')
                 OR (ce.event_type = 'ALLOTTED' AND NOT EXISTS (
                       SELECT 1 FROM checking_events m WHERE m.psgn_id = ce.psgn_id AND m.event_type IN ('O', 'NT'))))::int AS checked,
               count(DISTINCT ce.psgn_id) FILTER (WHERE ce.event_type = 'NT' AND NOT EXISTS (
                       SELECT 1 FROM checking_events l WHERE l.run_id = ce.run_id AND l.psgn_id = ce.psgn_id AND l.event_type IN ('O', 'NT')
                          AND (l.device_time, l.event_id) > (ce.device_time, ce.event_id)))::int AS nt,
               count(*) FILTER (WHERE ce.event_type = 'ALLOTTED')::int AS allotted
          FROM checking_events ce
          JOIN runs r2 ON r2.run_id = ce.run_id
         GROUP BY ce.beat_id
       ) ev ON ev.beat_id = b.beat_id
  LEFT JOIN (
        SELECT e.beat_id, count(*)::int AS eft_count, sum(e.total) AS eft_amount
          FROM efts e
          JOIN runs r3 ON r3.run_id = e.run_id
         GROUP BY e.beat_id
       ) ef ON ef.beat_id = b.beat_id
 WHERE (:zone::text IS NULL OR b.zone_code = :zone)
   AND (:division::text IS NULL OR b.div_code = :division)
   AND (:lobby::text IS NULL OR b.lobby_code = :lobby)
   AND (:tteId::text IS NULL OR b.tte_id = :tteId)
   AND {{scope}}
 ORDER BY r.start_date DESC, r.train_no, b.beat_no
