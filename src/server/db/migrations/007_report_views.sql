-- Report logic shared by several report SQL files, defined once here (docs/data-model.md, "Report functions").
-- Each function takes one train run and is a single SELECT, LANGUAGE sql and STABLE, so PostgreSQL inlines it
-- into the calling query: a report calls it as `CROSS JOIN LATERAL f(tr.run_id)` and keeps its own filters and
-- {{scope}} on train_runs tr, where they use the table's indexes. Plain SQL: runs on PostgreSQL 15 and PGlite.

-- Reserved coaches of a run and whether each was manned with an HHT: a coach is manned when it is in coaches[] of
-- a beat of the run worked with an HHT (device_id not null). tte_ids / hht_ids are the distinct TTEs and HHTs of
-- those beats, sorted (NULL for an unmanned coach). Used by unmanned_coaches (3 tabs), Train_Manned_with_HHT,
-- mannedcoachsummary and unmannedcoachhistory, so that all count "manned" alike.
CREATE OR REPLACE FUNCTION run_coach_manning(p_run_id bigint)
  RETURNS TABLE (coach_id text, seq int, class text, capacity int, tte_ids text[], hht_ids text[], manned boolean)
  LANGUAGE sql STABLE AS $$
  SELECT rc.coach_id, rc.seq, rc.class, rc.capacity, m.tte_ids, m.hht_ids, m.coach_id IS NOT NULL
    FROM run_coaches rc
    LEFT JOIN (
          -- Aggregated per run (beats_run index) rather than per coach: a beat covers several coaches.
          SELECT bc.coach_id, array_agg(DISTINCT b.tte_id) AS tte_ids, array_agg(DISTINCT b.device_id) AS hht_ids
            FROM beats b
            CROSS JOIN LATERAL unnest(b.coaches) AS bc(coach_id)
           WHERE b.run_id = p_run_id
             AND b.device_id IS NOT NULL
           GROUP BY bc.coach_id
         ) m ON m.coach_id = rc.coach_id
   WHERE rc.run_id = p_run_id
$$;

-- Occupancy of each reserved coach of a run. booked = passengers of the coach not cancelled; turned_up / nt /
-- not_marked = the TTE's marks; vacant = capacity minus the berths held by passengers neither cancelled nor
-- marked NT; occupancy_pct = held berths (at most the capacity) over capacity. Used by Occupancy (coach-wise, and
-- summed per class), so that both tabs agree.
CREATE OR REPLACE FUNCTION run_coach_occupancy(p_run_id bigint)
  RETURNS TABLE (coach_id text, seq int, class text, capacity int, booked int, turned_up int, nt int,
                 not_marked int, vacant int, occupancy_pct numeric)
  LANGUAGE sql STABLE AS $$
  SELECT rc.coach_id, rc.seq, rc.class, rc.capacity, ps.booked, ps.turned_up, ps.nt, ps.not_marked,
         greatest(rc.capacity - ps.held_berths, 0),
         round(100.0 * least(ps.held_berths, rc.capacity) / NULLIF(rc.capacity, 0), 1)
    FROM run_coaches rc
    CROSS JOIN LATERAL (
          SELECT count(*) FILTER (WHERE p.current_status <> 'CAN')::int AS booked,
                 count(*) FILTER (WHERE p.mark = 'O')::int AS turned_up,
                 count(*) FILTER (WHERE p.mark = 'NT')::int AS nt,
                 count(*) FILTER (WHERE p.mark IS NULL AND p.current_status <> 'CAN')::int AS not_marked,
                 count(DISTINCT p.berth_no) FILTER (WHERE p.current_status <> 'CAN' AND p.mark IS DISTINCT FROM 'NT')::int
                   AS held_berths
            FROM passengers p
           WHERE p.run_id = rc.run_id
             AND p.coach_id = rc.coach_id
         ) ps
   WHERE rc.run_id = p_run_id
$$;
