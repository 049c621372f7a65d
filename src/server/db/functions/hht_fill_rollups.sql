-- Every rollup of the runs lo <= run_id < hi, or only the named parts, recomputed from the raw rows. The drain of the
-- dirty set (hht_drain_dirty) calls it with the parts the changed tables feed (hht_rollup_parts); recomputing rather
-- than adding deltas keeps the rollups exact under any mix of inserts, updates and deletes.
CREATE OR REPLACE FUNCTION hht_fill_rollups(lo bigint, hi bigint, parts text[] DEFAULT NULL) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF parts IS NULL OR 'passengers' = ANY (parts) THEN
    PERFORM hht_fill_run_passengers(lo, hi);
    PERFORM hht_fill_coach_booked(lo, hi);
  END IF;
  IF parts IS NULL OR 'sync' = ANY (parts) THEN
    PERFORM hht_fill_sync(lo, hi);
  END IF;
  IF parts IS NULL OR 'efts' = ANY (parts) THEN
    PERFORM hht_fill_efts(lo, hi);
  END IF;
  IF parts IS NULL OR 'tdrs' = ANY (parts) THEN
    PERFORM hht_fill_tdrs(lo, hi);
  END IF;
  IF parts IS NULL OR 'vacancies' = ANY (parts) THEN
    PERFORM hht_fill_run_vacancies(lo, hi);
  END IF;
  IF parts IS NULL OR 'manning' = ANY (parts) THEN
    PERFORM hht_fill_manning_rollups(lo, hi);
    PERFORM hht_fill_tte_duty(lo, hi);
  END IF;
  IF parts IS NULL OR 'allotments' = ANY (parts) THEN
    PERFORM hht_fill_alloc_anomalies(lo, hi);
  END IF;
END
$$;
