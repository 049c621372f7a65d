-- Rollups: India-wide and multi-day reports read these per-run summaries instead of rescanning raw
-- rows (2 M passengers and 1.5 M checking events a national day). Each rollup row belongs to one train run and
-- carries the columns report scope filters on (zone_code, div_code, lobby_code), so a report reads a rollup
-- under the same alias and the same {{scope}} as the raw table.
--
-- They are kept by recomputing whole runs from the raw tables (hht_fill_rollups and the functions it calls, one file
-- each in src/server/db/functions), for the runs a transaction touched, as it commits (the dirty set, migration 025).

-- Passengers not cancelled, per run, class and lobby, with their marks (dashboard counts, 7-day chart, class share).
CREATE TABLE rollup_run_passengers (
  run_id bigint NOT NULL,
  start_date date NOT NULL,
  train_no text NOT NULL,
  zone_code text NOT NULL,
  div_code text NOT NULL,
  lobby_code text,
  class text NOT NULL,
  passengers int NOT NULL,
  turned_up int NOT NULL,
  not_turned_up int NOT NULL,
  not_marked int NOT NULL
);
CREATE INDEX rollup_run_passengers_run ON rollup_run_passengers (run_id);
CREATE INDEX rollup_run_passengers_date ON rollup_run_passengers (start_date);

-- Checking events per IST event date, run, TTE and HHT: counts, pending records and sync delays (minutes, exact
-- numeric sums so averages over any grouping equal the average over the raw events).
CREATE TABLE rollup_sync (
  event_date date NOT NULL,
  run_id bigint NOT NULL,
  start_date date NOT NULL,
  train_no text NOT NULL,
  zone_code text NOT NULL,
  div_code text NOT NULL,
  lobby_code text NOT NULL,
  tte_id text NOT NULL,
  device_id text,
  events int NOT NULL,
  pending int NOT NULL,
  synced int NOT NULL,
  delay_min_sum numeric,
  max_delay_min numeric,
  delayed_over_30 int NOT NULL,
  first_event_at timestamptz NOT NULL,
  last_event_at timestamptz NOT NULL,
  last_sync_at timestamptz
);
CREATE INDEX rollup_sync_run ON rollup_sync (run_id);
CREATE INDEX rollup_sync_date ON rollup_sync (event_date);

-- EFTs per IST issue date, run, TTE and payment mode.
CREATE TABLE rollup_efts (
  issue_date date NOT NULL,
  run_id bigint NOT NULL,
  zone_code text NOT NULL,
  div_code text NOT NULL,
  lobby_code text NOT NULL,
  tte_id text NOT NULL,
  payment_mode text NOT NULL,
  efts int NOT NULL,
  total numeric NOT NULL
);
CREATE INDEX rollup_efts_run ON rollup_efts (run_id);
CREATE INDEX rollup_efts_date ON rollup_efts (issue_date);

-- TDRs per run and reason, with status counts and the refunds.
CREATE TABLE rollup_tdrs (
  run_id bigint NOT NULL,
  start_date date NOT NULL,
  train_no text NOT NULL,
  zone_code text NOT NULL,
  div_code text NOT NULL,
  reason text NOT NULL,
  tdrs int NOT NULL,
  filed int NOT NULL,
  attested int NOT NULL,
  refunded int NOT NULL,
  rejected int NOT NULL,
  refund_amount numeric NOT NULL
);
CREATE INDEX rollup_tdrs_run ON rollup_tdrs (run_id);
CREATE INDEX rollup_tdrs_date ON rollup_tdrs (start_date);

-- Vacant berths per run and lobby: vacant, released to PRS, rebooked.
CREATE TABLE rollup_run_vacancies (
  run_id bigint NOT NULL,
  start_date date NOT NULL,
  train_no text NOT NULL,
  zone_code text NOT NULL,
  div_code text NOT NULL,
  lobby_code text,
  vacant int NOT NULL,
  released int NOT NULL,
  rebooked int NOT NULL
);
CREATE INDEX rollup_run_vacancies_run ON rollup_run_vacancies (run_id);
CREATE INDEX rollup_run_vacancies_date ON rollup_run_vacancies (start_date);

GRANT SELECT ON rollup_run_passengers, rollup_sync, rollup_efts, rollup_tdrs, rollup_run_vacancies TO hht_report;
