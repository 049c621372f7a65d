-- The audit trail is written on every report call (a few thousand entries a second on a busy process) and read
-- rarely, by an auditor with a date range. What each entry costs the database to store is therefore what matters
-- (npm run bench -- --audit-write): per entry, jsonb parsing was 1.2 µs, the (user_id, at DESC) index 1.7 µs and the
-- (at DESC) b-tree 0.8 µs of about 6.3 µs of COPY. So:
-- - details are kept as json: validated as JSON on the way in, stored as sent (the report reads a few keys with ->>);
-- - entries arrive in time order, so a BRIN index on `at` finds a date range (a few block ranges per day) at a small
--   fraction of a b-tree's upkeep;
-- - one officer's entries are found by a plain (user_id) index; the date range and the order apply to those rows.
DROP VIEW audit_trail_entries;
ALTER TABLE audit_trail ALTER COLUMN details DROP DEFAULT;
ALTER TABLE audit_trail ALTER COLUMN details TYPE json USING details::json;
ALTER TABLE audit_trail ALTER COLUMN details SET DEFAULT '{}'::json;
DROP INDEX audit_trail_at;
DROP INDEX audit_trail_user_at;
CREATE INDEX audit_trail_at ON audit_trail USING brin (at);
CREATE INDEX audit_trail_user ON audit_trail (user_id);
CREATE VIEW audit_trail_entries AS
  SELECT at, seq, action, user_id, user_level, report, ip, details FROM audit_trail;
GRANT SELECT ON audit_trail_entries TO hht_report;

-- Autovacuum's ANALYZE of a month's partition reads a 30,000-row sample (0.3 s of CPU at two million entries) and,
-- by default, comes after every 10 % of growth: about 1.4 µs per entry written. The trail's plans only choose between
-- its two indexes, which statistics half a month old choose as well: every 50 % of growth.
-- New partitions get the setting from audit_ensure_partitions (src/server/db/functions); those made before, here.
DO $$
DECLARE
  p regclass;
BEGIN
  FOR p IN SELECT inhrelid::regclass FROM pg_inherits WHERE inhparent = 'audit_trail'::regclass LOOP
    EXECUTE format('ALTER TABLE %s SET (autovacuum_analyze_scale_factor = 0.5)', p);
  END LOOP;
END
$$;
