-- Report result cache (src/server/reports/result-cache.ts): each server process keeps finished report answers for
-- a few seconds and drops them all when data that reports read changes. A write to any table the report role may
-- read is announced on channel hht_data when its transaction commits, whoever made it (this app, another server
-- process, psql, a seed). Statement-level triggers: one call per statement, and PostgreSQL folds the identical
-- notifications of one transaction into one, so a sync batch of 5,000 records costs one notification.
CREATE FUNCTION hht_report_data_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('hht_data', '');
  RETURN NULL;
END
$$;

-- Puts that trigger on every table of this schema the report role may read and that lacks it; returns how many it
-- added. migrate.ts runs it after every migration, so a table a later migration grants to hht_report is covered
-- without one of its own. Partitions are written through their parent (whose statement trigger fires); the
-- report role reads the parent only. ENABLE ALWAYS: bulk loads (the seed, the national loader) run with
-- session_replication_role = replica to skip foreign-key triggers, and must still be announced.
CREATE FUNCTION hht_watch_report_tables() RETURNS int LANGUAGE plpgsql AS $$
DECLARE
  t record;
  n int := 0;
BEGIN
  FOR t IN
    SELECT c.relname, g.tgenabled FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
      LEFT JOIN pg_trigger g ON g.tgrelid = c.oid AND g.tgname = 'hht_report_data_changed'
     WHERE s.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition
       AND has_table_privilege('hht_report', c.oid, 'SELECT')
       AND g.tgenabled IS DISTINCT FROM 'A'
     ORDER BY c.relname
  LOOP
    IF t.tgenabled IS NULL THEN
      EXECUTE format('CREATE TRIGGER hht_report_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I '
        'FOR EACH STATEMENT EXECUTE FUNCTION hht_report_data_changed()', t.relname);
      n := n + 1;
    END IF;
    EXECUTE format('ALTER TABLE %I ENABLE ALWAYS TRIGGER hht_report_data_changed', t.relname);
  END LOOP;
  RETURN n;
END
$$;

SELECT hht_watch_report_tables();
