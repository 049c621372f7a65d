-- TWRBeatwise: the Train Working Report of one run, one row per beat: TTE, HHT, coaches, passengers checked
-- (distinct passengers marked O or NT, and those given a berth on board with no O/NT mark of their own, whom the
-- allotment marks O: over the beats, the run's passengers with a mark), not turned up (passengers whose latest mark
-- by device time is this beat's NT: one marked NT and later O is not NT), berths allotted, EFTs.
WITH run AS (
  SELECT tr.run_id, tr.train_no, tr.start_date
    FROM train_runs tr
   WHERE tr.train_no = :trainNo
     AND tr.start_date = :startDate::date
), ev AS (
  SELECT ce.beat_id,
         count(DISTINCT ce.psgn_id) FILTER (WHERE ce.event_type IN ('O', 'NT')
           OR (ce.event_type = 'ALLOTTED' AND NOT EXISTS (
                 SELECT 1 FROM checking_events m WHERE m.psgn_id = ce.psgn_id AND m.event_type IN ('O', 'NT'))))::int AS checked,
         count(DISTINCT ce.psgn_id) FILTER (WHERE ce.event_type = 'NT' AND NOT EXISTS (
               SELECT 1 FROM checking_events l WHERE l.run_id = ce.run_id AND l.psgn_id = ce.psgn_id AND l.event_type IN ('O', 'NT')
                  AND (l.device_time, l.event_id) > (ce.device_time, ce.event_id)))::int AS nt,
         count(*) FILTER (WHERE ce.event_type = 'ALLOTTED')::int AS allotted,
         count(*) FILTER (WHERE ce.event_type IN ('SHIFTED', 'GOT_DOWN'))::int AS shifted_got_down
    FROM checking_events ce
    JOIN run ON run.run_id = ce.run_id
   GROUP BY ce.beat_id
), ef AS (
  SELECT e.beat_id, count(*)::int AS eft_count, sum(e.total) AS eft_amount
    FROM efts e
    JOIN run ON run.run_id = e.run_id
   GROUP BY e.beat_id
)
SELECT b.beat_no,
       b.from_station,
       b.to_station,
       b.tte_id,
       te.name AS tte_name,
       b.lobby_code AS lobby,
       b.device_id AS hht_id,
       array_to_string(b.coaches, ', ') AS coaches,
       cardinality(b.coaches) AS coach_count,
       COALESCE(ev.checked, 0) AS checked,
       COALESCE(ev.nt, 0) AS nt,
       COALESCE(ev.allotted, 0) AS allotted,
       COALESCE(ev.shifted_got_down, 0) AS shifted_got_down,
       COALESCE(ef.eft_count, 0) AS eft_count,
       COALESCE(ef.eft_amount, 0) AS eft_amount,
       b.sign_on_at,
       b.sign_off_at,
       b.twr_status,
       run.train_no,
       run.start_date,
       COALESCE(ist_date(b.sign_off_at), run.start_date + 1) AS eft_until
  FROM beats b
  JOIN run ON run.run_id = b.run_id
  JOIN ttes te ON te.tte_id = b.tte_id
  LEFT JOIN ev ON ev.beat_id = b.beat_id
  LEFT JOIN ef ON ef.beat_id = b.beat_id
 WHERE {{scope}}
 ORDER BY b.beat_no
