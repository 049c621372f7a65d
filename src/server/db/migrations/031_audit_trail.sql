-- The audit trail: who signed in, read which report, exported which rows, changed which device or file, and
-- what was refused. One row per event, partitioned by calendar month (UTC) of `at`, so retention drops a month
-- at a time. No passenger name or mobile is ever written here (audit/redact.ts strips them before the insert).
CREATE TABLE audit_trail (
  at timestamptz NOT NULL,
  seq bigserial,
  action text NOT NULL,
  user_id text,
  user_level text,
  report text,
  ip text,
  details jsonb NOT NULL DEFAULT '{}'::jsonb
) PARTITION BY RANGE (at);
CREATE INDEX audit_trail_at ON audit_trail (at DESC);
CREATE INDEX audit_trail_user_at ON audit_trail (user_id, at DESC);

-- The role the portal writes the trail as: it may add entries and read them, never change or remove one.
-- Privileges on a partitioned table are checked on the parent only, so partitions made later need no grant.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'hht_audit') THEN
    BEGIN
      CREATE ROLE hht_audit NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN
      NULL;
    END;
  END IF;
  IF NOT pg_has_role(current_user, 'hht_audit', 'MEMBER') THEN
    EXECUTE format('GRANT hht_audit TO %I', current_user);
  END IF;
END
$$;
GRANT USAGE ON SCHEMA public TO hht_audit;
GRANT INSERT, SELECT ON audit_trail TO hht_audit;
GRANT USAGE ON SEQUENCE audit_trail_seq_seq TO hht_audit;

-- A second lock for whoever connects with more rights than the writer role (a psql session as the owner): an entry
-- is never updated or deleted row by row. Retention detaches and drops whole partitions, which fires no row trigger.
CREATE FUNCTION hht_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_trail is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER audit_trail_append_only BEFORE UPDATE OR DELETE ON audit_trail
  FOR EACH ROW EXECUTE FUNCTION hht_audit_append_only();

-- The month partitions from first_month to last_month (any day of each), made when missing; returns how many.
CREATE FUNCTION audit_ensure_partitions(first_month date, last_month date) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
  m date;
  made int := 0;
BEGIN
  PERFORM pg_advisory_xact_lock(4242031);
  FOR m IN SELECT g::date FROM generate_series(date_trunc('month', first_month), date_trunc('month', last_month), interval '1 month') g LOOP
    CONTINUE WHEN to_regclass('audit_trail_m' || to_char(m, 'YYYYMM')) IS NOT NULL;
    EXECUTE format('CREATE TABLE %I PARTITION OF audit_trail FOR VALUES FROM (%L) TO (%L)',
      'audit_trail_m' || to_char(m, 'YYYYMM'), m::text || ' 00:00:00+00', (m + interval '1 month')::date::text || ' 00:00:00+00');
    made := made + 1;
  END LOOP;
  RETURN made;
END
$$;
SELECT audit_ensure_partitions((now() AT TIME ZONE 'UTC')::date, ((now() AT TIME ZONE 'UTC') + interval '1 month')::date);

-- What report SQL (the report role) reads: a view, so the role gets no grant on the table itself (and the table,
-- written every second, does not announce report data changes to the result caches: see migration 017).
-- The row number is the entry's order; details keep the figures of each kind of entry.
CREATE VIEW audit_trail_entries AS
  SELECT at, seq, action, user_id, user_level, report, ip, details FROM audit_trail;
GRANT SELECT ON audit_trail_entries TO hht_report;
