-- Retention: the rows of run date d in a partitioned table go, those in its default partition row by row, its own
-- partition whole (detached, then dropped).
CREATE OR REPLACE FUNCTION hht_drop_run_partition(t text, d date) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  part text := t || '_' || hht_partition_suffix(d);
BEGIN
  EXECUTE format('DELETE FROM %I WHERE run_id >= $1 AND run_id < $2', t || '_other')
    USING (d - date '2000-01-01')::bigint * 100000, (d - date '2000-01-01' + 1)::bigint * 100000;
  IF to_regclass(part) IS NOT NULL THEN
    EXECUTE format('ALTER TABLE %I DETACH PARTITION %I', t, part);
    EXECUTE format('DROP TABLE %I', part);
  END IF;
END
$$;
