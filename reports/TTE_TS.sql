-- TTE working summary, one row per beat (TTE on a train run), for run dates in the range.
-- Runs come from the train_runs (start_date, div_code) index. The counts are scalar subqueries per beat in the select
-- list, looked up in the beat's own run (its partition, by the (run_id, event_type) index): with the engine's page
-- LIMIT, PostgreSQL evaluates them after the sort for the page's beats only, and the count(*) of server paging does
-- not compute them. A week of national beats grouped whole was 11 s.
-- Checked: distinct passengers the beat marked O or NT, and those it gave a berth on board with no O/NT mark of
-- their own (the allotment marks them O): the run's checked passengers are its passengers with a mark. NT: passengers
-- whose latest mark by device time is the beat's NT (one marked NT and later O is not NT).
SELECT b.tte_id,
       t.name AS tte_name,
       t.designation,
       b.lobby_code,
       b.div_code,
       tr.train_no,
       tr.start_date,
       b.beat_no,
       b.from_station AS beat_from,
       b.to_station AS beat_to,
       array_to_string(b.coaches, ', ') AS coaches,
       cardinality(b.coaches) AS coach_count,
       (SELECT count(DISTINCT ce.psgn_id)::int
          FROM checking_events ce
         WHERE ce.run_id = b.run_id AND ce.beat_id = b.beat_id
           AND (ce.event_type IN ('O', 'NT')
                OR (ce.event_type = 'ALLOTTED' AND NOT EXISTS (
                      SELECT 1 FROM checking_events m
                       WHERE m.run_id = ce.run_id AND m.psgn_id = ce.psgn_id AND m.event_type IN ('O', 'NT'))))) AS checked,
       (SELECT count(DISTINCT ce.psgn_id)::int
          FROM checking_events ce
         WHERE ce.run_id = b.run_id AND ce.beat_id = b.beat_id AND ce.event_type = 'NT'
           AND NOT EXISTS (
                 SELECT 1 FROM checking_events l
                  WHERE l.run_id = ce.run_id AND l.psgn_id = ce.psgn_id AND l.event_type IN ('O', 'NT')
                    AND (l.device_time, l.event_id) > (ce.device_time, ce.event_id))) AS nt,
       (SELECT count(*)::int
          FROM checking_events ce
         WHERE ce.run_id = b.run_id AND ce.beat_id = b.beat_id AND ce.event_type = 'ALLOTTED') AS allotted,
       (SELECT count(*)::int FROM efts e WHERE e.run_id = b.run_id AND e.beat_id = b.beat_id) AS eft_count,
       (SELECT COALESCE(sum(e.total), 0) FROM efts e WHERE e.run_id = b.run_id AND e.beat_id = b.beat_id) AS eft_amount,
       b.sign_on_at,
       b.sign_off_at,
       b.twr_status,
       b.device_id,
       b.trip_id,
       COALESCE(ist_date(b.sign_off_at), tr.start_date + 1) AS eft_until
  FROM train_runs tr
  JOIN beats b ON b.run_id = tr.run_id
  JOIN ttes t ON t.tte_id = b.tte_id
 WHERE tr.start_date BETWEEN :start_date::date AND :end_date::date
   AND (:trainNo::text IS NULL OR tr.train_no = :trainNo)
   AND (:zone::text IS NULL OR b.zone_code = :zone)
   AND (:division::text IS NULL OR b.div_code = :division)
   AND (:lobby::text IS NULL OR b.lobby_code = :lobby)
   AND (:tteId::text IS NULL OR b.tte_id = :tteId)
   AND {{scope}}
 ORDER BY tr.start_date DESC, tr.train_no, b.beat_no
