-- Manning rollups: the dashboard's Trains Manned and Manned vs Unmanned Coaches and the Coach Manning
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

CREATE FUNCTION hht_fill_manning_rollups(lo bigint, hi bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM rollup_run_manning WHERE run_id >= lo AND run_id < hi;
  INSERT INTO rollup_run_manning
  SELECT tr.run_id, tr.start_date, tr.train_no, tr.zone_code, tr.div_code,
         (SELECT count(*) FROM run_coaches rc WHERE rc.run_id = tr.run_id),
         (SELECT count(*) FROM run_coaches rc
           WHERE rc.run_id = tr.run_id
             AND EXISTS (SELECT 1 FROM beats b WHERE b.run_id = tr.run_id AND b.device_id IS NOT NULL AND rc.coach_id = ANY (b.coaches))),
         (SELECT count(DISTINCT b.device_id) FROM beats b WHERE b.run_id = tr.run_id),
         EXISTS (SELECT 1 FROM beats b WHERE b.run_id = tr.run_id AND b.device_id IS NOT NULL),
         (SELECT b.lobby_code FROM beats b WHERE b.run_id = tr.run_id ORDER BY b.beat_no LIMIT 1)
    FROM train_runs tr
   WHERE tr.run_id >= lo AND tr.run_id < hi;

  DELETE FROM rollup_coach_manning WHERE run_id >= lo AND run_id < hi;
  INSERT INTO rollup_coach_manning
  SELECT rc.run_id, tr.start_date, tr.zone_code, tr.div_code, cl.lobby_code, mb.lobby_code IS NOT NULL, count(*)
    FROM run_coaches rc
    JOIN train_runs tr ON tr.run_id = rc.run_id
    LEFT JOIN LATERAL (
          SELECT b.lobby_code FROM beats b
           WHERE b.run_id = rc.run_id AND b.device_id IS NOT NULL AND rc.coach_id = ANY (b.coaches)
           ORDER BY b.beat_no LIMIT 1
         ) mb ON TRUE
    LEFT JOIN LATERAL (
          SELECT coalesce(mb.lobby_code, (SELECT b.lobby_code FROM beats b WHERE b.run_id = rc.run_id ORDER BY b.beat_no LIMIT 1)) AS lobby_code
         ) cl ON TRUE
   WHERE rc.run_id >= lo AND rc.run_id < hi
   GROUP BY rc.run_id, tr.start_date, tr.zone_code, tr.div_code, cl.lobby_code, mb.lobby_code IS NOT NULL;
END
$$;

-- The rollups of migration 014 plus manning.
CREATE OR REPLACE FUNCTION hht_fill_rollups(lo bigint, hi bigint, parts text[] DEFAULT NULL) RETURNS void LANGUAGE plpgsql AS $$
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

  IF parts IS NULL OR 'manning' = ANY (parts) THEN
    PERFORM hht_fill_manning_rollups(lo, hi);
  END IF;
END
$$;

-- A database migrated with data gets its manning rollups now.
SELECT hht_fill_manning_rollups(0, 9223372036854775807);

GRANT SELECT ON rollup_run_manning, rollup_coach_manning TO hht_report;
