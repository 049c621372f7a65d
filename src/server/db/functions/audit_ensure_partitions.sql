-- The audit trail's month partitions (of audit_batches, migration 041) from first_month to last_month (any day of
-- each), made when missing; returns how many. Named audit_*, not hht_*: a call of an hht_ function counts as a write
-- to report data (db/write-generation.ts).
CREATE OR REPLACE FUNCTION audit_ensure_partitions(first_month date, last_month date) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
  m date;
  made int := 0;
BEGIN
  PERFORM pg_advisory_xact_lock(4242031);
  FOR m IN SELECT g::date FROM generate_series(date_trunc('month', first_month), date_trunc('month', last_month), interval '1 month') g LOOP
    CONTINUE WHEN to_regclass('audit_batches_m' || to_char(m, 'YYYYMM')) IS NOT NULL;
    EXECUTE format('CREATE TABLE %I PARTITION OF audit_batches FOR VALUES FROM (%L) TO (%L)',
      'audit_batches_m' || to_char(m, 'YYYYMM'), m::text || ' 00:00:00+00', (m + interval '1 month')::date::text || ' 00:00:00+00');
    made := made + 1;
  END LOOP;
  RETURN made;
END
$$;
