-- National scale: TTE Manning a page at a time.
--
-- TTE Manning lists every TTE on duty on a date (7,625 India-wide for a national day, 135 on the large seed), so a
-- whole answer grows with the country. The report is now paged by the server in its order (lobby, TTE): an index
-- in that order lets a page read its TTEs' rows and stop, and the page's count comes from a row per date and
-- lobby instead of counting the day's TTEs.
-- It serves every read by date, so the index by date alone goes.
DROP INDEX rollup_tte_duty_date;
CREATE INDEX rollup_tte_duty_order ON rollup_tte_duty (duty_date, lobby_code, tte_id);
-- A TTE's rows of a date: the report's per-row look-up of the coaches manned over the lobbies shown.
CREATE INDEX rollup_tte_duty_tte ON rollup_tte_duty (tte_id, duty_date);

-- The report's rows per duty date and lobby: its TTEs with a beat of a run that started on the date or up to three
-- days before (the report's run window). The sum over a user's lobbies is the number of rows the report lists.
CREATE TABLE rollup_tte_duty_lobby (
  duty_date date NOT NULL,
  zone_code text NOT NULL,
  div_code text NOT NULL,
  lobby_code text NOT NULL,
  ttes int NOT NULL
);
CREATE INDEX rollup_tte_duty_lobby_date ON rollup_tte_duty_lobby (duty_date, lobby_code);

CREATE TYPE hht_day_lobby AS (duty_date date, lobby_code text);

CREATE FUNCTION hht_fill_tte_duty_lobby(keys hht_day_lobby[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- One batch at a time per (date, lobby).
  PERFORM hht_lock_buckets(4242023, ARRAY(SELECT u.duty_date::text || '/' || u.lobby_code FROM unnest(keys) u));
  DELETE FROM rollup_tte_duty_lobby l USING unnest(keys) u WHERE l.duty_date = u.duty_date AND l.lobby_code = u.lobby_code;
  INSERT INTO rollup_tte_duty_lobby
  SELECT d.duty_date, d.zone_code, d.div_code, d.lobby_code, count(DISTINCT d.tte_id)
    FROM rollup_tte_duty d
    JOIN (SELECT DISTINCT duty_date, lobby_code FROM unnest(keys)) u ON u.duty_date = d.duty_date AND u.lobby_code = d.lobby_code
   WHERE d.start_date BETWEEN d.duty_date - 3 AND d.duty_date
   GROUP BY d.duty_date, d.zone_code, d.div_code, d.lobby_code;
END
$$;

-- The per-run duty rows keep their body (migration 020) under a name that says so; hht_fill_tte_duty, which
-- hht_fill_rollups calls with the manning part, now also redoes the lobby rows of the dates the runs fed before and
-- after.
ALTER FUNCTION hht_fill_tte_duty(bigint, bigint) RENAME TO hht_fill_tte_duty_runs;

CREATE FUNCTION hht_fill_tte_duty(lo bigint, hi bigint) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  keys hht_day_lobby[];
BEGIN
  SELECT array_agg(DISTINCT (duty_date, lobby_code)::hht_day_lobby) INTO keys FROM rollup_tte_duty WHERE run_id >= lo AND run_id < hi;
  PERFORM hht_fill_tte_duty_runs(lo, hi);
  PERFORM hht_fill_tte_duty_lobby(ARRAY(
    SELECT DISTINCT k FROM (
      SELECT unnest(COALESCE(keys, '{}')) AS k
      UNION ALL
      SELECT (duty_date, lobby_code)::hht_day_lobby FROM rollup_tte_duty WHERE run_id >= lo AND run_id < hi
    ) u));
END
$$;

-- A database migrated with data gets its lobby rows now.
SELECT hht_fill_tte_duty_lobby(ARRAY(SELECT DISTINCT (duty_date, lobby_code)::hht_day_lobby FROM rollup_tte_duty));

GRANT SELECT ON rollup_tte_duty_lobby TO hht_report;
