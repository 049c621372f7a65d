-- Manning rollups (issue 13): the dashboard's Trains Manned and Manned vs Unmanned Coaches and the Coach Manning
-- Summary read per-run manning instead of evaluating every coach of every run against its beats. Same upkeep as
-- migration 014: hht_fill_rollups (replaced here with the two manning tables added) recomputes whole runs.

-- Per run: reserved coaches, coaches manned with an HHT, HHTs used, whether any beat had an HHT, and the lobby of
-- beat 1 (lobby_code: the lobby that works the run first, as the dashboard scopes it).
CREATE TABLE rollup_run_manning (
  run_id bigint NOT NULL,
  start_date date NOT NULL,
  train_no text NOT NULL,
  zone_code text NOT NULL,
  div_code text NOT NULL,
  reserved_coaches int NOT NULL,
  manned_coaches int NOT NULL,
  hhts_used int NOT NULL,
  manned boolean NOT NULL,
  lobby_code text
);
CREATE INDEX rollup_run_manning_run ON rollup_run_manning (run_id);
CREATE INDEX rollup_run_manning_date ON rollup_run_manning (start_date);

-- Coaches per run, lobby and manned/unmanned: a manned coach counts for the lobby of the first beat with an HHT
-- covering it, an unmanned one for the lobby of the run's first beat (as the dashboard's chart attributes them).
CREATE TABLE rollup_coach_manning (
  run_id bigint NOT NULL,
  start_date date NOT NULL,
  zone_code text NOT NULL,
  div_code text NOT NULL,
  lobby_code text,
  manned boolean NOT NULL,
  coaches int NOT NULL
);
CREATE INDEX rollup_coach_manning_run ON rollup_coach_manning (run_id);
CREATE INDEX rollup_coach_manning_date ON rollup_coach_manning (start_date);

GRANT SELECT ON rollup_run_manning, rollup_coach_manning TO hht_report;
