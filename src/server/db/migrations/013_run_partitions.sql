-- National scale: the four largest tables are partitioned by run date with native declarative
-- partitioning. Every row of them carries run_id = (start_date - 2000-01-01) * 100000 + train_no, so a run date
-- is the run_id range [day * 100000, (day + 1) * 100000): RANGE partitions on run_id are exactly one run date
-- each, with no new column and no change to the report SQL. Retention drops whole partitions
-- (src/server/db/partitions.ts).
--
-- Keys of partitioned tables must contain the partition key, so they become (key, run_id). The keys themselves
-- are derived from run_id (psgn_id = run_id * 10000 + n, event_id = run_id * 100000 + n), or are 10-digit PNRs
-- unique by construction, so the old single-column uniqueness is unchanged in practice; foreign keys into these
-- tables now name the run too (same run, stronger than before).
--
-- A default partition (<table>_other) takes rows of a day without its own partition, so no insert ever fails
-- for want of one; hht_ensure_run_partitions creates the days ahead of time and leaves a day whose rows already
-- sit in the default partition there.

CREATE FUNCTION hht_partition_suffix(d date) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT 'r' || to_char(d, 'YYYYMMDD')
$$;

CREATE FUNCTION hht_ensure_run_partitions(first_day date, last_day date) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
  d date;
  t text;
  lo bigint;
  made int := 0;
BEGIN
  -- Several servers (or the seed and the background job) may make the same day's partitions at once: one at a time,
  -- and the second finds them made.
  PERFORM pg_advisory_xact_lock(4242013);
  FOR d IN SELECT g::date FROM generate_series(first_day, last_day, interval '1 day') g LOOP
    lo := (d - date '2000-01-01')::bigint * 100000;
    -- Parents before children: a foreign key into a new partition needs the referenced partition present.
    FOREACH t IN ARRAY ARRAY['pnrs', 'passengers', 'checking_events', 'vacant_berths'] LOOP
      CONTINUE WHEN to_regclass(t || '_' || hht_partition_suffix(d)) IS NOT NULL;
      -- Rows of this day already in the default partition stay there (the day is served from it).
      CONTINUE WHEN EXISTS (SELECT 1 FROM pg_class WHERE relname = t || '_other')
        AND hht_default_has_rows(t, lo);
      EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%s) TO (%s)',
        t || '_' || hht_partition_suffix(d), t, lo, lo + 100000);
      made := made + 1;
    END LOOP;
  END LOOP;
  RETURN made;
END
$$;

CREATE FUNCTION hht_default_has_rows(t text, lo bigint) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  found boolean;
BEGIN
  EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I WHERE run_id >= $1 AND run_id < $2)', t || '_other')
    INTO found USING lo, lo + 100000;
  RETURN found;
END
$$;

-- The old tables move aside; their constraints and indexes go with them, the foreign keys into them are dropped
-- (re-made below against the new tables).
ALTER TABLE reallocations DROP CONSTRAINT reallocations_psgn_id_fkey;
ALTER TABLE tdrs DROP CONSTRAINT tdrs_pnr_fkey;
ALTER TABLE checking_events RENAME TO checking_events_unpartitioned;
ALTER TABLE vacant_berths RENAME TO vacant_berths_unpartitioned;
ALTER TABLE passengers RENAME TO passengers_unpartitioned;
ALTER TABLE pnrs RENAME TO pnrs_unpartitioned;
DROP INDEX checking_events_run, checking_events_sync, checking_events_psgn, passengers_run, passengers_pnr, pnrs_run;

CREATE TABLE pnrs (
  pnr text NOT NULL CHECK (pnr ~ '^[0-9]{10}$'),
  run_id bigint NOT NULL REFERENCES train_runs,
  class text NOT NULL,
  quota text NOT NULL,
  from_station text NOT NULL,
  to_station text NOT NULL,
  booked_at timestamptz NOT NULL,
  channel text NOT NULL,
  total_fare numeric(10, 2) NOT NULL,
  zone_code text NOT NULL,
  div_code text NOT NULL,
  PRIMARY KEY (pnr, run_id)
) PARTITION BY RANGE (run_id);
CREATE INDEX pnrs_run ON pnrs (run_id);

CREATE TABLE passengers (
  psgn_id bigint NOT NULL,
  pnr text NOT NULL,
  run_id bigint NOT NULL REFERENCES train_runs,
  psgn_no int NOT NULL,
  name text NOT NULL,
  age int NOT NULL,
  gender text NOT NULL CHECK (gender IN ('M', 'F', 'T')),
  mobile_no text NOT NULL,
  class text NOT NULL,
  quota text NOT NULL,
  booking_status text NOT NULL,
  current_status text NOT NULL,
  coach_id text,
  berth_no int,
  berth_type text,
  from_station text NOT NULL,
  to_station text NOT NULL,
  fare numeric(10, 2) NOT NULL,
  mark text CHECK (mark IN ('O', 'NT')),
  marked_at timestamptz,
  marked_by text,
  zone_code text NOT NULL,
  div_code text NOT NULL,
  lobby_code text,
  PRIMARY KEY (psgn_id, run_id),
  FOREIGN KEY (pnr, run_id) REFERENCES pnrs (pnr, run_id)
) PARTITION BY RANGE (run_id);
CREATE INDEX passengers_run ON passengers (run_id, coach_id);
CREATE INDEX passengers_pnr ON passengers (pnr);

CREATE TABLE checking_events (
  event_id bigint NOT NULL,
  run_id bigint NOT NULL REFERENCES train_runs,
  beat_id bigint NOT NULL REFERENCES beats,
  psgn_id bigint,
  tte_id text NOT NULL,
  device_id text,
  event_type text NOT NULL CHECK (event_type IN ('O', 'NT', 'SHIFTED', 'GOT_DOWN', 'ALLOTTED')),
  coach_id text,
  berth_no int,
  new_coach_id text,
  new_berth_no int,
  station_code text,
  device_time timestamptz NOT NULL,
  sync_time timestamptz,
  zone_code text NOT NULL,
  div_code text NOT NULL,
  lobby_code text NOT NULL,
  PRIMARY KEY (event_id, run_id),
  FOREIGN KEY (psgn_id, run_id) REFERENCES passengers (psgn_id, run_id)
) PARTITION BY RANGE (run_id);
CREATE INDEX checking_events_run ON checking_events (run_id, event_type);
CREATE INDEX checking_events_sync ON checking_events (device_time);
CREATE INDEX checking_events_psgn ON checking_events (psgn_id);

CREATE TABLE vacant_berths (
  run_id bigint NOT NULL REFERENCES train_runs,
  coach_id text NOT NULL,
  berth_no int NOT NULL,
  berth_type text NOT NULL,
  class text NOT NULL,
  from_station text NOT NULL,
  to_station text NOT NULL,
  reason text NOT NULL CHECK (reason IN ('NT', 'CANCELLED', 'UNSOLD', 'GOT_DOWN')),
  released_to_prs boolean NOT NULL DEFAULT false,
  released_at timestamptz,
  released_by text,
  rebooked boolean NOT NULL DEFAULT false,
  zone_code text NOT NULL,
  div_code text NOT NULL,
  lobby_code text,
  PRIMARY KEY (run_id, coach_id, berth_no, from_station)
) PARTITION BY RANGE (run_id);

CREATE TABLE pnrs_other PARTITION OF pnrs DEFAULT;
CREATE TABLE passengers_other PARTITION OF passengers DEFAULT;
CREATE TABLE checking_events_other PARTITION OF checking_events DEFAULT;
CREATE TABLE vacant_berths_other PARTITION OF vacant_berths DEFAULT;

-- One partition per run date already present, then the rows (parents first).
SELECT hht_ensure_run_partitions(min(start_date), max(start_date)) FROM train_runs HAVING count(*) > 0;
INSERT INTO pnrs SELECT * FROM pnrs_unpartitioned;
INSERT INTO passengers SELECT * FROM passengers_unpartitioned;
INSERT INTO checking_events SELECT * FROM checking_events_unpartitioned;
INSERT INTO vacant_berths SELECT * FROM vacant_berths_unpartitioned;
DROP TABLE checking_events_unpartitioned, vacant_berths_unpartitioned, passengers_unpartitioned, pnrs_unpartitioned;

ALTER TABLE reallocations ADD FOREIGN KEY (psgn_id, run_id) REFERENCES passengers (psgn_id, run_id);
ALTER TABLE tdrs ADD FOREIGN KEY (pnr, run_id) REFERENCES pnrs (pnr, run_id);

GRANT SELECT ON pnrs, passengers, checking_events, vacant_berths TO hht_report;
