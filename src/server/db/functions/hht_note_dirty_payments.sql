-- As hht_note_dirty, for digital_payments, which names its EFT instead of a run: the runs are the EFTs' runs.
CREATE OR REPLACE FUNCTION hht_note_dirty_payments() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO hht_dirty (run_id, source)
    SELECT t.run_id, TG_ARGV[0] FROM (SELECT DISTINCT e.run_id FROM new_rows p JOIN efts e ON e.eft_no = p.eft_no) t
     WHERE NOT EXISTS (SELECT 1 FROM hht_dirty d WHERE d.run_id = t.run_id AND d.source = TG_ARGV[0]);
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO hht_dirty (run_id, source)
    SELECT t.run_id, TG_ARGV[0]
      FROM (SELECT e.run_id FROM new_rows p JOIN efts e ON e.eft_no = p.eft_no
            UNION SELECT e.run_id FROM old_rows p JOIN efts e ON e.eft_no = p.eft_no) t
     WHERE NOT EXISTS (SELECT 1 FROM hht_dirty d WHERE d.run_id = t.run_id AND d.source = TG_ARGV[0]);
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO hht_dirty (run_id, source)
    SELECT t.run_id, TG_ARGV[0] FROM (SELECT DISTINCT e.run_id FROM old_rows p JOIN efts e ON e.eft_no = p.eft_no) t
     WHERE NOT EXISTS (SELECT 1 FROM hht_dirty d WHERE d.run_id = t.run_id AND d.source = TG_ARGV[0]);
  ELSE
    INSERT INTO hht_dirty (run_id, source) VALUES (NULL, TG_ARGV[0]);
  END IF;
  RETURN NULL;
END
$$;
