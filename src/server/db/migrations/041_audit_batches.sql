-- The audit trail is written on every report call and read rarely, by an auditor with a date range, so what an entry
-- costs to store is what matters. Stored one row per entry, the database spent 3-4 µs of CPU on each (COPY's text
-- parsing of seven columns, a heap tuple, two index entries, its WAL), about 5 % of what a cached answer costs in all.
-- Stored one row per flushed batch of up to 1,000 entries, as one JSON array compressed with lz4, it spends 0.2-0.6 µs
-- (the JSON checked, the bytes compressed, one tuple and two index entries per batch; measured with the backend's CPU
-- from /proc, 50,000 entries of a loaded bench). The entries are read back through the view audit_trail, which
-- unnests them: the auditor's date range pays for what the writes no longer do.
--
-- A batch's entries all fall in one calendar month (UTC) of `at` (the server starts a new batch at a month's turn), so
-- the batch lies in that month's partition, retention still drops a month at a time, and a date range is found by the
-- batch's first and last times (BRIN: batches arrive in time order). One officer's batches are found by `users`
-- (the distinct user ids of its entries, GIN).
CREATE TABLE audit_batches (
  at_first timestamptz NOT NULL,
  at_last timestamptz NOT NULL,
  seq bigserial,
  n int NOT NULL CHECK (n BETWEEN 1 AND 9999),
  users text[] NOT NULL,
  -- [[at, action, user_id, user_level, report, ip, details], ...] in the order recorded
  entries json NOT NULL,
  CHECK (at_last >= at_first),
  CHECK (date_trunc('month', at_first AT TIME ZONE 'UTC') = date_trunc('month', at_last AT TIME ZONE 'UTC'))
) PARTITION BY RANGE (at_first);
CREATE INDEX audit_batches_at ON audit_batches USING brin (at_first, at_last);
CREATE INDEX audit_batches_users ON audit_batches USING gin (users);
-- lz4 compresses a batch at several times pglz's speed (0.2 against 1.0 µs per entry); PGlite is built without it.
DO $$
BEGIN
  ALTER TABLE audit_batches ALTER COLUMN entries SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  NULL;
END
$$;
GRANT INSERT, SELECT ON audit_batches TO hht_audit;
GRANT USAGE ON SEQUENCE audit_batches_seq_seq TO hht_audit;
CREATE TRIGGER audit_batches_append_only BEFORE UPDATE OR DELETE ON audit_batches
  FOR EACH ROW EXECUTE FUNCTION hht_audit_append_only();

-- The entries kept so far move into batches of 1,000 in their order (month by month), then the old table goes.
-- Their entry numbers change (a batch's number x 10,000 + the entry's place in it).
DO $$
DECLARE
  m date;
BEGIN
  FOR m IN SELECT DISTINCT date_trunc('month', at AT TIME ZONE 'UTC')::date FROM audit_trail ORDER BY 1 LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF audit_batches FOR VALUES FROM (%L) TO (%L)',
      'audit_batches_m' || to_char(m, 'YYYYMM'), m::text || ' 00:00:00+00', (m + interval '1 month')::date::text || ' 00:00:00+00');
  END LOOP;
END
$$;
INSERT INTO audit_batches (at_first, at_last, n, users, entries)
SELECT min(at), max(at), count(*),
       coalesce(array_agg(DISTINCT user_id) FILTER (WHERE user_id IS NOT NULL), '{}'),
       json_agg(json_build_array(to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), action, user_id,
                                 user_level, report, ip, details) ORDER BY at, seq)
  FROM (SELECT t.*, date_trunc('month', at AT TIME ZONE 'UTC') AS month,
               (row_number() OVER (PARTITION BY date_trunc('month', at AT TIME ZONE 'UTC') ORDER BY at, seq) - 1) / 1000 AS chunk
          FROM audit_trail t) e
 GROUP BY month, chunk
 ORDER BY month, chunk;
DROP VIEW audit_trail_entries;
DROP TABLE audit_trail;

-- One row per entry, as it was recorded: what the report, the tests and an auditor with psql read. The batch's
-- columns let a reader's date range and user skip whole batches (the audit report does; see reports/audit_trail.sql).
-- A batch is read as jsonb, parsed once: json's ->> parses an entry again for each field, which made a day's page
-- of the report 1.7 times slower. So details read as jsonb (keys in jsonb's order); the stored text stays as sent.
CREATE VIEW audit_trail AS
  SELECT (e.v->>0)::timestamptz AS at,
         b.seq * 10000 + e.i AS seq,
         e.v->>1 AS action,
         e.v->>2 AS user_id,
         e.v->>3 AS user_level,
         e.v->>4 AS report,
         e.v->>5 AS ip,
         e.v->6 AS details,
         b.at_first AS batch_first,
         b.at_last AS batch_last,
         b.users AS batch_users
    FROM audit_batches b
   CROSS JOIN LATERAL jsonb_array_elements(b.entries::jsonb) WITH ORDINALITY AS e(v, i);
GRANT SELECT ON audit_trail TO hht_audit;
-- The report role reads its own view, as before (no grant on the table or on the view above).
CREATE VIEW audit_trail_entries AS SELECT * FROM audit_trail;
GRANT SELECT ON audit_trail_entries TO hht_report;
-- The batches' heads, without their entries: the report's count SQL counts a batch wholly inside its range by n.
CREATE VIEW audit_trail_batches AS SELECT at_first, at_last, n, users FROM audit_batches;
GRANT SELECT ON audit_trail_batches TO hht_report;
