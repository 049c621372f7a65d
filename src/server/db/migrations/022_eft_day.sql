-- National scale: EFT Summary without a row per run.
--
-- EFT Summary summed rollup_efts (a row per IST issue date, run and TTE: 54,745 rows for 8 national days) and
-- counted distinct TTEs per division over the range, so its time grew with the day's trains (19.7x the large seed's).
-- rollup_eft_day has a row per (issue date, division) and per (issue date, division, lobby), the shape of
-- rollup_sync_day: about a hundred rows a day whatever the number of trains. Besides the sums it keeps, for the TTE
-- count, `ttes_since`: element i (1 to 32) is the number of the row's TTEs with EFTs on the date whose previous EFT
-- date in the same division (lobby, for a lobby row) is at least i days earlier, or absent within 31 days. A TTE is
-- in a range [s, e] once, on its first EFT date d there, which is the date whose previous EFT date is before s, that
-- is at least d - s + 1 days earlier; so the range's TTEs are sum(ttes_since[d - s + 1]) over its rows. Exact for
-- ranges of up to 32 dates (the report's dateRange rule allows 31).
CREATE TABLE rollup_eft_day (
  issue_date date NOT NULL,
  zone_code text NOT NULL,
  div_code text NOT NULL,
  lobby_code text,
  efts int NOT NULL,
  digital_efts int NOT NULL,
  total numeric NOT NULL,
  cash numeric NOT NULL,
  digital numeric NOT NULL,
  card numeric NOT NULL,
  upi numeric NOT NULL,
  ttes_since int[] NOT NULL
);
CREATE INDEX rollup_eft_day_date ON rollup_eft_day (issue_date, div_code);
-- A TTE's previous EFT date in a division, looked up for each TTE of the dates being redone.
CREATE INDEX rollup_efts_tte ON rollup_efts (div_code, tte_id, issue_date);

-- Takes, in order, the transaction's advisory locks of one class for the 64 buckets the names fall in: a batch waits
-- for another that holds one of its names (so each recomputes from the other's committed rows), two batches cannot
-- wait on each other, and a seed filling thousands of names holds at most 64 locks (max_locks_per_transaction).
CREATE FUNCTION hht_lock_buckets(lock_class int, names text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  b int;
BEGIN
  FOR b IN SELECT DISTINCT hashtext(n) & 63 FROM unnest(names) AS n ORDER BY 1 LOOP
    PERFORM pg_advisory_xact_lock(lock_class, b);
  END LOOP;
END
$$;

-- Redoes the day rows of the given (issue date, division) pairs and of the 31 dates after each in its division: an
-- EFT date of a TTE added or gone changes the gap of that TTE's next EFT date. Live EFTs arrive for today, so the
-- later dates are mostly not there yet.
CREATE FUNCTION hht_fill_eft_day(keys hht_day_division[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- One batch at a time per division: its dates depend on each other.
  PERFORM hht_lock_buckets(4242022, ARRAY(SELECT u.div_code FROM unnest(keys) u));
  DELETE FROM rollup_eft_day d
   USING (SELECT u.div_code, min(u.event_date) AS lo, max(u.event_date) + 31 AS hi FROM unnest(keys) u GROUP BY u.div_code) s
   WHERE d.div_code = s.div_code AND d.issue_date BETWEEN s.lo AND s.hi;
  WITH span AS (
    SELECT u.div_code, min(u.event_date) AS lo, max(u.event_date) + 31 AS hi FROM unnest(keys) u GROUP BY u.div_code
  ), r AS (
    SELECT r.* FROM rollup_efts r JOIN span s ON r.div_code = s.div_code AND r.issue_date BETWEEN s.lo AND s.hi
  ), sums AS (
    SELECT r.issue_date, r.zone_code, r.div_code, r.lobby_code, sum(r.efts)::int AS efts, sum(r.digital_efts)::int AS digital_efts,
           sum(r.total) AS total, sum(r.cash) AS cash, sum(r.digital) AS digital, sum(r.card) AS card, sum(r.upi) AS upi
      FROM r
     GROUP BY GROUPING SETS ((r.issue_date, r.zone_code, r.div_code, r.lobby_code), (r.issue_date, r.zone_code, r.div_code))
  ), gaps AS (
    -- Days since the TTE's previous EFT date in the lobby (lobby rows) or the division (division rows); 32: none.
    SELECT t.issue_date, t.zone_code, t.div_code, t.lobby_code,
           COALESCE(t.issue_date - (SELECT max(p.issue_date) FROM rollup_efts p
                                     WHERE p.div_code = t.div_code AND p.tte_id = t.tte_id AND p.lobby_code = t.lobby_code
                                       AND p.issue_date < t.issue_date AND p.issue_date >= t.issue_date - 31), 32) AS gap
      FROM (SELECT DISTINCT r.issue_date, r.zone_code, r.div_code, r.lobby_code, r.tte_id FROM r) t
    UNION ALL
    SELECT t.issue_date, t.zone_code, t.div_code, NULL,
           COALESCE(t.issue_date - (SELECT max(p.issue_date) FROM rollup_efts p
                                     WHERE p.div_code = t.div_code AND p.tte_id = t.tte_id
                                       AND p.issue_date < t.issue_date AND p.issue_date >= t.issue_date - 31), 32)
      FROM (SELECT DISTINCT r.issue_date, r.zone_code, r.div_code, r.tte_id FROM r) t
  ), since AS (
    SELECT c.issue_date, c.zone_code, c.div_code, c.lobby_code, array_agg(c.n ORDER BY c.i) AS ttes_since
      FROM (SELECT g.issue_date, g.zone_code, g.div_code, g.lobby_code, i, count(*) FILTER (WHERE g.gap >= i)::int AS n
              FROM gaps g CROSS JOIN generate_series(1, 32) AS i
             GROUP BY g.issue_date, g.zone_code, g.div_code, g.lobby_code, i) c
     GROUP BY c.issue_date, c.zone_code, c.div_code, c.lobby_code
  )
  INSERT INTO rollup_eft_day
  SELECT s.issue_date, s.zone_code, s.div_code, s.lobby_code, s.efts, s.digital_efts, s.total, s.cash, s.digital, s.card, s.upi,
         c.ttes_since
    FROM sums s
    JOIN since c ON c.issue_date = s.issue_date AND c.zone_code = s.zone_code AND c.div_code = s.div_code
                AND c.lobby_code IS NOT DISTINCT FROM s.lobby_code;
END
$$;

-- The per-run EFT rollup keeps its body (migration 020) under a name that says so; hht_fill_efts, which
-- hht_fill_rollups calls, now also redoes the day rows of the (date, division) pairs the runs fed before and after.
ALTER FUNCTION hht_fill_efts(bigint, bigint) RENAME TO hht_fill_eft_runs;

CREATE FUNCTION hht_fill_efts(lo bigint, hi bigint) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  keys hht_day_division[];
BEGIN
  SELECT array_agg(DISTINCT (issue_date, div_code)::hht_day_division) INTO keys FROM rollup_efts WHERE run_id >= lo AND run_id < hi;
  PERFORM hht_fill_eft_runs(lo, hi);
  PERFORM hht_fill_eft_day(ARRAY(
    SELECT DISTINCT k FROM (
      SELECT unnest(COALESCE(keys, '{}')) AS k
      UNION ALL
      SELECT (issue_date, div_code)::hht_day_division FROM rollup_efts WHERE run_id >= lo AND run_id < hi
    ) u));
END
$$;

-- A database migrated with data gets its day rows now.
SELECT hht_fill_eft_day(ARRAY(SELECT DISTINCT (issue_date, div_code)::hht_day_division FROM rollup_efts));

GRANT SELECT ON rollup_eft_day TO hht_report;
