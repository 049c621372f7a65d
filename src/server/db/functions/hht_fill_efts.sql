-- The EFT rollups of the runs lo <= run_id < hi: the per-run rows (hht_fill_eft_runs), then the day rows
-- (rollup_eft_day) and the TTE-wise ranked rows (rollup_eft_rank) of the (IST issue date, division, TTE) triples those
-- runs fed before and after.
CREATE OR REPLACE FUNCTION hht_fill_efts(lo bigint, hi bigint) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  before hht_day_division_tte[];
  changed hht_day_division_tte[];
BEGIN
  SELECT array_agg(DISTINCT (issue_date, div_code, tte_id)::hht_day_division_tte) INTO before
    FROM rollup_efts WHERE run_id >= lo AND run_id < hi;
  PERFORM hht_fill_eft_runs(lo, hi);
  changed := ARRAY(
    SELECT DISTINCT k FROM (
      SELECT unnest(COALESCE(before, '{}')) AS k
      UNION ALL
      SELECT (issue_date, div_code, tte_id)::hht_day_division_tte FROM rollup_efts WHERE run_id >= lo AND run_id < hi
    ) u);
  PERFORM hht_fill_eft_day(ARRAY(SELECT DISTINCT (c.event_date, c.div_code)::hht_day_division FROM unnest(changed) c));
  PERFORM hht_fill_eft_rank(changed);
END
$$;
