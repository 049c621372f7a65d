-- rollup_allot_anomalies: the Berth Allotment Anomaly rows (hht_alloc_anomalies) of the runs lo <= run_id < hi.
-- A run without an allotment has none, and is not worked out (most runs a synced batch touches).
CREATE OR REPLACE FUNCTION hht_fill_alloc_anomalies(lo bigint, hi bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM rollup_allot_anomalies WHERE run_id >= lo AND run_id < hi;
  IF EXISTS (SELECT 1 FROM reallocations r WHERE r.run_id >= lo AND r.run_id < hi) THEN
    INSERT INTO rollup_allot_anomalies SELECT * FROM hht_alloc_anomalies(lo, hi);
  END IF;
END
$$;
