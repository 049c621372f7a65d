-- The dirty set: what the writes of the current transaction touched, for the rollups to be recomputed before it
-- commits. Statement-level triggers on every table a rollup reads (installed by hht_watch_rollup_sources, see
-- src/server/db/functions) add a row per touched run and table; a deferred constraint trigger on this table drains
-- it at commit (hht_drain_dirty). It is empty outside a transaction. run_id NULL: every run (after a TRUNCATE).
CREATE TABLE hht_dirty (
  run_id bigint,
  source text NOT NULL
);
CREATE INDEX hht_dirty_key ON hht_dirty (run_id, source);

-- A database that had data before the dirty set gets every rollup recomputed once, at the end of this migrate
-- (migrate.ts drains what a migration leaves here).
INSERT INTO hht_dirty (run_id, source) SELECT NULL, 'train_runs' WHERE EXISTS (SELECT 1 FROM train_runs);
