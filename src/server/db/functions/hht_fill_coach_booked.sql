-- rollup_coach_booked: passengers not cancelled per run and coach (Null TWR's booked in coaches), for the runs
-- lo <= run_id < hi.
CREATE OR REPLACE FUNCTION hht_fill_coach_booked(lo bigint, hi bigint) RETURNS void LANGUAGE sql AS $$
  DELETE FROM rollup_coach_booked WHERE run_id >= lo AND run_id < hi;
  INSERT INTO rollup_coach_booked
  SELECT p.run_id, p.coach_id, count(*)
    FROM passengers p
   WHERE p.run_id >= lo AND p.run_id < hi AND p.current_status <> 'CAN' AND p.coach_id IS NOT NULL
   GROUP BY p.run_id, p.coach_id;
$$;
