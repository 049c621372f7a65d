-- Statement-level trigger (AFTER INSERT, UPDATE or DELETE, with transition tables new_rows / old_rows) on a table
-- with a run_id column or one of its partitions: the runs the statement touched go into the dirty set, once per run
-- and table (its argument: the table hht_rollup_sources names, the parent of a partition). A statement of 5,000 rows
-- costs one insert here.
CREATE OR REPLACE FUNCTION hht_note_dirty() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO hht_dirty (run_id, source)
    SELECT t.run_id, TG_ARGV[0] FROM (SELECT DISTINCT run_id FROM new_rows) t
     WHERE NOT EXISTS (SELECT 1 FROM hht_dirty d WHERE d.run_id = t.run_id AND d.source = TG_ARGV[0]);
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO hht_dirty (run_id, source)
    SELECT t.run_id, TG_ARGV[0] FROM (SELECT run_id FROM new_rows UNION SELECT run_id FROM old_rows) t
     WHERE NOT EXISTS (SELECT 1 FROM hht_dirty d WHERE d.run_id = t.run_id AND d.source = TG_ARGV[0]);
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO hht_dirty (run_id, source)
    SELECT t.run_id, TG_ARGV[0] FROM (SELECT DISTINCT run_id FROM old_rows) t
     WHERE NOT EXISTS (SELECT 1 FROM hht_dirty d WHERE d.run_id = t.run_id AND d.source = TG_ARGV[0]);
  ELSE
    -- TRUNCATE: no rows to name, so every run.
    INSERT INTO hht_dirty (run_id, source) VALUES (NULL, TG_ARGV[0]);
  END IF;
  RETURN NULL;
END
$$;
