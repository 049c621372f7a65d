-- Retention, before the runs of the given run_id range go: the TTE-wise EFT ranges holding any of their EFT dates are
-- let go (redoing them would recompute every TTE of those dates in every such range); their dates are the oldest kept.
CREATE OR REPLACE FUNCTION hht_forget_eft_rank(run_lo bigint, run_hi bigint) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  last date := (SELECT max(issue_date) FROM rollup_efts WHERE run_id >= run_lo AND run_id < run_hi);
BEGIN
  IF last IS NULL THEN
    RETURN;
  END IF;
  PERFORM pg_advisory_xact_lock(4242024, 0);
  DELETE FROM rollup_eft_rank WHERE lo <= last;
  DELETE FROM rollup_eft_rank_range WHERE lo <= last;
END
$$;
