-- Retention of one run date: its partitions of the four partitioned tables dropped whole, the rows of its runs in the
-- other tables deleted (children first, so every foreign key holds at each step). A dropped partition fires no
-- DELETE trigger, so the date's runs are put in the dirty set first: at commit their rollups are recomputed (to
-- nothing) with the day rows they fed, like any other write's. The TTE-wise EFT ranges holding the date's EFT dates
-- are let go first (hht_forget_eft_rank). Returns whether the date held anything.
CREATE OR REPLACE FUNCTION hht_drop_run_date(d date) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  lo bigint := (d - date '2000-01-01')::bigint * 100000;
  hi bigint := (d - date '2000-01-01' + 1)::bigint * 100000;
  t text;
  part text;
  held boolean := EXISTS (SELECT 1 FROM train_runs WHERE run_id >= lo AND run_id < hi);
BEGIN
  INSERT INTO hht_dirty (run_id, source) SELECT run_id, 'train_runs' FROM train_runs WHERE run_id >= lo AND run_id < hi;
  PERFORM hht_forget_eft_rank(lo, hi);
  DELETE FROM digital_payments WHERE eft_no IN (SELECT eft_no FROM efts WHERE run_id >= lo AND run_id < hi);
  FOREACH t IN ARRAY ARRAY['checking_events', 'vacant_berths'] LOOP
    PERFORM hht_drop_run_partition(t, d);
  END LOOP;
  DELETE FROM reallocations WHERE run_id >= lo AND run_id < hi;
  DELETE FROM tdrs WHERE run_id >= lo AND run_id < hi;
  DELETE FROM efts WHERE run_id >= lo AND run_id < hi;
  DELETE FROM coach_deficiencies WHERE run_id >= lo AND run_id < hi;
  DELETE FROM complaints WHERE run_id >= lo AND run_id < hi;
  DELETE FROM dynamic_fares WHERE run_id >= lo AND run_id < hi;
  DELETE FROM onboard_staff WHERE run_id >= lo AND run_id < hi;
  DELETE FROM dropped_etickets WHERE run_id >= lo AND run_id < hi;
  PERFORM hht_drop_run_partition('passengers', d);
  PERFORM hht_drop_run_partition('pnrs', d);
  DELETE FROM beats WHERE run_id >= lo AND run_id < hi;
  DELETE FROM run_coaches WHERE run_id >= lo AND run_id < hi;
  DELETE FROM train_runs WHERE run_id >= lo AND run_id < hi;
  RETURN held;
END
$$;
