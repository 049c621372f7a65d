-- The rollup auditor (src/server/db/rollup-audit.ts): a background job recomputes a few runs an hour from the raw rows
-- with the reference queries (src/server/db/references) and repairs any rollup that differs. Each repair is a row
-- here (run, table, rows off), kept for operators; hht_rollup_repairs() counts them (GET /api/health, metrics).
CREATE TABLE hht_rollup_repairs (
  repaired_at timestamptz NOT NULL DEFAULT now(),
  run_id bigint NOT NULL,
  table_name text NOT NULL,
  rows_missing int NOT NULL,
  rows_extra int NOT NULL
);
CREATE INDEX hht_rollup_repairs_at ON hht_rollup_repairs (repaired_at);

-- Where the auditor goes on: it walks the runs in run_id order, a few per pass, and starts again at the end.
CREATE TABLE hht_rollup_audit_state (
  id int PRIMARY KEY CHECK (id = 1),
  next_run_id bigint NOT NULL DEFAULT 0,
  runs_checked bigint NOT NULL DEFAULT 0,
  last_pass_at timestamptz
);
INSERT INTO hht_rollup_audit_state (id) VALUES (1);
