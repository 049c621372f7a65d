-- The Berth Allotment Anomaly rows of the runs lo <= run_id < hi (hht_alloc_anomalies_q holds the rules), planned
-- for the call at hand. One run (what a synced batch's drain asks for, many times a second on a live day): a plan kept
-- for the session, generic (planning the query took about as long as running it for one run, 10 ms each; kept, 6 ms
-- in all). A range (a date, a seed): planned for its bounds each time, since a plan for one run's few rows per CTE
-- would be wrong for a whole date's.
CREATE OR REPLACE FUNCTION hht_alloc_anomalies(lo bigint, hi bigint)
RETURNS TABLE (run_id bigint, realloc_id bigint, anomaly text, other_pnr text, other_realloc_id bigint, detail text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $fn$
BEGIN
  IF hi = lo + 1 THEN
    RETURN QUERY SELECT * FROM hht_alloc_anomalies_q(lo, hi);
  ELSE
    RETURN QUERY EXECUTE 'SELECT * FROM hht_alloc_anomalies_q($1, $2)' USING lo, hi;
  END IF;
END
$fn$;
