-- As hht_note_dirty, for train_stops, which names a train instead of a run: the runs are the train's runs (a
-- timetable changed by hand moves the stop sequences and departures the allotment anomalies compare).
CREATE OR REPLACE FUNCTION hht_note_dirty_stops() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO hht_dirty (run_id, source)
    SELECT t.run_id, TG_ARGV[0] FROM (SELECT DISTINCT tr.run_id FROM new_rows s JOIN train_runs tr ON tr.train_no = s.train_no) t
     WHERE NOT EXISTS (SELECT 1 FROM hht_dirty d WHERE d.run_id = t.run_id AND d.source = TG_ARGV[0]);
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO hht_dirty (run_id, source)
    SELECT t.run_id, TG_ARGV[0]
      FROM (SELECT tr.run_id FROM new_rows s JOIN train_runs tr ON tr.train_no = s.train_no
            UNION SELECT tr.run_id FROM old_rows s JOIN train_runs tr ON tr.train_no = s.train_no) t
     WHERE NOT EXISTS (SELECT 1 FROM hht_dirty d WHERE d.run_id = t.run_id AND d.source = TG_ARGV[0]);
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO hht_dirty (run_id, source)
    SELECT t.run_id, TG_ARGV[0] FROM (SELECT DISTINCT tr.run_id FROM old_rows s JOIN train_runs tr ON tr.train_no = s.train_no) t
     WHERE NOT EXISTS (SELECT 1 FROM hht_dirty d WHERE d.run_id = t.run_id AND d.source = TG_ARGV[0]);
  ELSE
    INSERT INTO hht_dirty (run_id, source) VALUES (NULL, TG_ARGV[0]);
  END IF;
  RETURN NULL;
END
$$;
