-- Builds every TTE-wise EFT range again from rollup_efts, oldest date first (tests, a repair by hand).
CREATE OR REPLACE FUNCTION hht_build_eft_rank() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  d date;
BEGIN
  PERFORM pg_advisory_xact_lock(4242024, 0);
  DELETE FROM rollup_eft_rank;
  DELETE FROM rollup_eft_rank_range;
  FOR d IN SELECT DISTINCT issue_date FROM rollup_efts ORDER BY 1 LOOP
    PERFORM hht_eft_rank_open(d);
  END LOOP;
END
$$;
