-- Puts the dirty-set triggers on every table hht_rollup_sources names and on each of its partitions (a statement
-- on a partition fires the partition's own statement triggers, not its parent's; a TRUNCATE of a partition alone is
-- not recorded: retention drops partitions through hht_drop_run_date), and the drain on hht_dirty; only
-- the missing ones. Returns how many it made. ENABLE ALWAYS: bulk loads (the seed, the national loader, the feed)
-- run with session_replication_role = replica to skip foreign-key triggers, and must still be recorded. migrate.ts
-- runs it at every start, ensureRunPartitions after making partitions.
CREATE OR REPLACE FUNCTION hht_watch_rollup_sources() RETURNS int LANGUAGE plpgsql AS $$
DECLARE
  t record;
  op text;
  fn text;
  tg text;
  made int := 0;
BEGIN
  FOR t IN
    SELECT c.oid, c.relname, s.source, false AS part
      FROM hht_rollup_sources() s
      JOIN pg_class c ON c.oid = to_regclass(s.source)
    UNION ALL
    SELECT c.oid, c.relname, s.source, true
      FROM hht_rollup_sources() s
      JOIN pg_inherits i ON i.inhparent = to_regclass(s.source)
      JOIN pg_class c ON c.oid = i.inhrelid
  LOOP
    fn := CASE t.source WHEN 'digital_payments' THEN 'hht_note_dirty_payments' WHEN 'train_stops' THEN 'hht_note_dirty_stops' ELSE 'hht_note_dirty' END;
    -- A TRUNCATE of the parent fires its partitions' TRUNCATE triggers too: the parent's alone records it.
    FOREACH op IN ARRAY CASE WHEN t.part THEN ARRAY['INSERT', 'UPDATE', 'DELETE'] ELSE ARRAY['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE'] END LOOP
      tg := 'hht_dirty_' || lower(op);
      IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = t.oid AND tgname = tg) THEN
        EXECUTE format('CREATE TRIGGER %I AFTER %s ON %I %s FOR EACH STATEMENT EXECUTE FUNCTION %I(%L)', tg, op, t.relname,
          CASE op WHEN 'INSERT' THEN 'REFERENCING NEW TABLE AS new_rows'
                  WHEN 'UPDATE' THEN 'REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows'
                  WHEN 'DELETE' THEN 'REFERENCING OLD TABLE AS old_rows'
                  ELSE '' END, fn, t.source);
        made := made + 1;
      END IF;
      IF (SELECT tgenabled FROM pg_trigger WHERE tgrelid = t.oid AND tgname = tg) <> 'A' THEN
        EXECUTE format('ALTER TABLE %I ENABLE ALWAYS TRIGGER %I', t.relname, tg);
      END IF;
    END LOOP;
  END LOOP;
  IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = 'hht_dirty'::regclass AND tgname = 'hht_drain_at_commit') THEN
    CREATE CONSTRAINT TRIGGER hht_drain_at_commit AFTER INSERT ON hht_dirty DEFERRABLE INITIALLY DEFERRED
      FOR EACH ROW EXECUTE FUNCTION hht_drain_dirty_at_commit();
    made := made + 1;
  END IF;
  IF (SELECT tgenabled FROM pg_trigger WHERE tgrelid = 'hht_dirty'::regclass AND tgname = 'hht_drain_at_commit') <> 'A' THEN
    ALTER TABLE hht_dirty ENABLE ALWAYS TRIGGER hht_drain_at_commit;
  END IF;
  RETURN made;
END
$$;
