-- Rollups: India-wide and multi-day reports read these per-run summaries instead of rescanning raw
-- rows (2 M passengers and 1.5 M checking events a national day). Each rollup row belongs to one train run and
-- carries the columns report scope filters on (zone_code, div_code, lobby_code), so a report reads a rollup
-- under the same alias and the same {{scope}} as the raw table.
--
-- They are kept by recomputing whole runs: hht_fill_rollups(lo, hi) replaces the rows of the runs with
-- lo <= run_id < hi from the raw tables. A run's rows are a few dozen, so a sync batch (one device, one run)
-- refreshes its run in a few milliseconds (src/server/hht/rollups.ts, called from the ingest), and a seeded day is
-- one call over its run_id range (a run date is [day * 100000, (day + 1) * 100000)). Recomputing rather than
-- adding deltas keeps them exact under any mix of inserts and updates (marks, berth releases).

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

CREATE FUNCTION hht_fill_rollups(lo bigint, hi bigint, parts text[] DEFAULT NULL) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF parts IS NULL OR 'passengers' = ANY (parts) THEN
    DELETE FROM rollup_run_passengers WHERE run_id >= lo AND run_id < hi;
    INSERT INTO rollup_run_passengers
    SELECT p.run_id, tr.start_date, tr.train_no, tr.zone_code, tr.div_code, p.lobby_code, p.class,
           count(*), count(*) FILTER (WHERE p.mark = 'O'), count(*) FILTER (WHERE p.mark = 'NT'),
           count(*) FILTER (WHERE p.mark IS NULL)
      FROM passengers p
      JOIN train_runs tr ON tr.run_id = p.run_id
     WHERE p.run_id >= lo AND p.run_id < hi AND p.current_status <> 'CAN'
     GROUP BY p.run_id, tr.start_date, tr.train_no, tr.zone_code, tr.div_code, p.lobby_code, p.class;
  END IF;

  IF parts IS NULL OR 'sync' = ANY (parts) THEN
    DELETE FROM rollup_sync WHERE run_id >= lo AND run_id < hi;
    INSERT INTO rollup_sync
    SELECT ist_date(ce.device_time), ce.run_id, tr.start_date, tr.train_no, ce.zone_code, ce.div_code, ce.lobby_code,
           ce.tte_id, ce.device_id,
           count(*), count(*) FILTER (WHERE ce.sync_time IS NULL), count(ce.sync_time),
           sum(extract(epoch FROM ce.sync_time - ce.device_time) / 60.0),
           max(extract(epoch FROM ce.sync_time - ce.device_time) / 60.0),
           count(*) FILTER (WHERE ce.sync_time - ce.device_time > interval '30 minutes'),
           min(ce.device_time), max(ce.device_time), max(ce.sync_time)
      FROM checking_events ce
      JOIN train_runs tr ON tr.run_id = ce.run_id
     WHERE ce.run_id >= lo AND ce.run_id < hi
     GROUP BY ist_date(ce.device_time), ce.run_id, tr.start_date, tr.train_no, ce.zone_code, ce.div_code, ce.lobby_code,
           ce.tte_id, ce.device_id;
  END IF;

  IF parts IS NULL OR 'efts' = ANY (parts) THEN
    DELETE FROM rollup_efts WHERE run_id >= lo AND run_id < hi;
    INSERT INTO rollup_efts
    SELECT ist_date(e.issued_at), e.run_id, e.zone_code, e.div_code, e.lobby_code, e.tte_id, e.payment_mode,
           count(*), sum(e.total)
      FROM efts e
     WHERE e.run_id >= lo AND e.run_id < hi
     GROUP BY ist_date(e.issued_at), e.run_id, e.zone_code, e.div_code, e.lobby_code, e.tte_id, e.payment_mode;
  END IF;

  IF parts IS NULL OR 'tdrs' = ANY (parts) THEN
    DELETE FROM rollup_tdrs WHERE run_id >= lo AND run_id < hi;
    INSERT INTO rollup_tdrs
    SELECT td.run_id, tr.start_date, tr.train_no, td.zone_code, td.div_code, td.reason, count(*),
           count(*) FILTER (WHERE td.status = 'FILED'), count(*) FILTER (WHERE td.status = 'ATTESTED'),
           count(*) FILTER (WHERE td.status = 'REFUNDED'), count(*) FILTER (WHERE td.status = 'REJECTED'),
           COALESCE(sum(td.refund_amount) FILTER (WHERE td.status = 'REFUNDED'), 0)
      FROM tdrs td
      JOIN train_runs tr ON tr.run_id = td.run_id
     WHERE td.run_id >= lo AND td.run_id < hi
     GROUP BY td.run_id, tr.start_date, tr.train_no, td.zone_code, td.div_code, td.reason;
  END IF;

  IF parts IS NULL OR 'vacancies' = ANY (parts) THEN
    DELETE FROM rollup_run_vacancies WHERE run_id >= lo AND run_id < hi;
    INSERT INTO rollup_run_vacancies
    SELECT vb.run_id, tr.start_date, tr.train_no, tr.zone_code, tr.div_code, vb.lobby_code, count(*),
           count(*) FILTER (WHERE vb.released_to_prs), count(*) FILTER (WHERE vb.released_to_prs AND vb.rebooked)
      FROM vacant_berths vb
      JOIN train_runs tr ON tr.run_id = vb.run_id
     WHERE vb.run_id >= lo AND vb.run_id < hi
     GROUP BY vb.run_id, tr.start_date, tr.train_no, tr.zone_code, tr.div_code, vb.lobby_code;
  END IF;
END
$$;

-- The rollups of every run of one run date.
CREATE FUNCTION hht_fill_rollups_for_date(d date) RETURNS void LANGUAGE sql AS $$
  SELECT hht_fill_rollups((d - date '2000-01-01')::bigint * 100000, (d - date '2000-01-01' + 1)::bigint * 100000)
$$;

-- A database migrated with data gets its rollups now.
SELECT hht_fill_rollups_for_date(d) FROM (SELECT DISTINCT start_date AS d FROM train_runs) days;

GRANT SELECT ON rollup_run_passengers, rollup_sync, rollup_efts, rollup_tdrs, rollup_run_vacancies TO hht_report;
