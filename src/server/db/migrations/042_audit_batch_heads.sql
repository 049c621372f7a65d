-- A report call's entry is mostly its head: action, user, level, report, address and the filters as sent. When an
-- officer or a dashboard runs the same report again, all of that is the same and only the figures differ (rows, ms,
-- how it was served). A batch now keeps each head once, in `heads`, and such an entry is [at, head's place in heads,
-- figures]: about 70 bytes instead of 200. PostgreSQL checks, compresses and logs a third of the bytes, and the
-- server copies less per call. Entries of other kinds, and every batch written before, keep the whole form:
-- [at, action, user_id, user_level, report, ip, details].
ALTER TABLE audit_batches ADD COLUMN heads json;
-- [[action, user_id, user_level, report, ip, details], ...]: details is the part the entry's figures are added to.
DO $$
BEGIN
  ALTER TABLE audit_batches ALTER COLUMN heads SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  NULL;
END
$$;

-- The same rows and columns as before (041), whichever form each entry has. A batch's heads are parsed once per batch
-- (OFFSET 0 keeps the planner from copying the cast into every entry's columns), then each entry finds its head by
-- place. An entry's details are its head's with the figures added (jsonb ||: the keys of the two never overlap).
CREATE OR REPLACE VIEW audit_trail AS
  SELECT (e.v->>0)::timestamptz AS at,
         b.seq * 10000 + e.i AS seq,
         CASE WHEN h.v IS NULL THEN e.v->>1 ELSE h.v->>0 END AS action,
         CASE WHEN h.v IS NULL THEN e.v->>2 ELSE h.v->>1 END AS user_id,
         CASE WHEN h.v IS NULL THEN e.v->>3 ELSE h.v->>2 END AS user_level,
         CASE WHEN h.v IS NULL THEN e.v->>4 ELSE h.v->>3 END AS report,
         CASE WHEN h.v IS NULL THEN e.v->>5 ELSE h.v->>4 END AS ip,
         CASE WHEN h.v IS NULL THEN e.v->6 ELSE (h.v->5) || (e.v->2) END AS details,
         b.at_first AS batch_first,
         b.at_last AS batch_last,
         b.users AS batch_users
    FROM audit_batches b
   CROSS JOIN LATERAL (SELECT b.heads::jsonb AS heads OFFSET 0) p
   CROSS JOIN LATERAL jsonb_array_elements(b.entries::jsonb) WITH ORDINALITY AS e(v, i)
   CROSS JOIN LATERAL (SELECT CASE WHEN jsonb_typeof(e.v->1) = 'number' THEN p.heads->((e.v->>1)::int) END AS v) h;
