-- National scale: the first pages of TTE-wise EFT Summary without grouping the range.
--
-- TTE-wise EFT Summary lists every TTE with EFTs in a date range, highest amount first. Its first page needs each
-- TTE's sum over the chosen range, so it grouped the range's rollup_efts rows (54,745 for 8 national days, 21-27x the
-- large seed's time). A range is at most 32 dates (the report's dateRange rule), so the ranges that can be asked for
-- are few: 32 end at each date. For each of them rollup_eft_rank keeps the range's first rows in the report's order
-- (amount DESC, TTE, lobby, division, zone), at most hht_eft_rank_depth() of them, and rollup_eft_rank_range the first
-- row it let go (the bound). Invariant: the kept rows of a range are exactly the range's rows that come before its
-- bound (every row when the bound is NULL). The report reads the kept rows in order and groups the range only for the
-- rows from the bound on, which a first page does not reach.
--
-- Upkeep (hht_fill_eft_rank, from hht_fill_efts: sync path, seed, retention): every TTE whose rollup rows a run
-- refresh changed is recomputed over each kept range holding a changed date, and kept if it comes before the bound;
-- a range past its depth lets its last rows go and takes the first of them as its bound. This holds the invariant
-- whatever changed (a TTE's sum up or down, a row gone). Live EFTs arrive for today: 32 ranges end at today, and
-- opening the ranges of a new date copies those of the day before (new rows come from the new date alone).
CREATE TABLE rollup_eft_rank_range (
  lo date NOT NULL,
  hi date NOT NULL,
  -- The first row of the range not kept, in the report's order; all NULL: every row of the range is kept.
  bound_amount numeric,
  bound_tte text,
  bound_lobby text,
  bound_div text,
  bound_zone text,
  PRIMARY KEY (lo, hi)
);
CREATE INDEX rollup_eft_rank_range_hi ON rollup_eft_rank_range (hi);

CREATE TABLE rollup_eft_rank (
  lo date NOT NULL,
  hi date NOT NULL,
  tte_id text NOT NULL,
  lobby_code text NOT NULL,
  div_code text NOT NULL,
  zone_code text NOT NULL,
  eft_count int NOT NULL,
  trains_worked int NOT NULL,
  amount numeric NOT NULL,
  cash numeric NOT NULL,
  digital numeric NOT NULL,
  digital_pct numeric NOT NULL
);
-- The report's order within a range: a page is an index range read in order.
CREATE INDEX rollup_eft_rank_order ON rollup_eft_rank (lo, hi, amount DESC, tte_id, lobby_code, div_code, zone_code);
-- A row of a range per TTE and lobby; the upkeep finds a TTE's rows by it.
CREATE UNIQUE INDEX rollup_eft_rank_tte ON rollup_eft_rank (lo, hi, div_code, tte_id, lobby_code, zone_code);

-- How many rows a range keeps: two pages of 50. A setting of the database, so a test can make it small.
CREATE FUNCTION hht_eft_rank_depth() RETURNS int LANGUAGE sql STABLE AS 'SELECT 100';

-- A (range, division, TTE) whose row(s) are to be recomputed; a changed (IST issue date, division, TTE).
CREATE TYPE hht_eft_rank_key AS (lo date, hi date, div_code text, tte_id text);
CREATE TYPE hht_day_division_tte AS (event_date date, div_code text, tte_id text);

-- Recomputes the given TTEs over the given ranges from rollup_efts: kept if before the range's bound, and ranges past
-- their depth cut back to it. Of a range's candidates only its first depth + 1 can stay (any later one has depth + 1
-- rows before it), so no more are written: opening a date takes thousands of TTEs into each range. Its look-ups are
-- by key in small, cached tables: at the default cost of a random page (4, a disk's) the planner read all of
-- rollup_eft_rank to delete a sync's few hundred candidates (7 ms at national size, against 1.2 by its index).
CREATE FUNCTION hht_eft_rank_merge(cands hht_eft_rank_key[]) RETURNS void LANGUAGE plpgsql SET random_page_cost = 1.1 AS $$
DECLARE
  depth int := hht_eft_rank_depth();
  grown hht_eft_rank_key[];
BEGIN
  IF cardinality(cands) = 0 THEN
    RETURN;
  END IF;
  DELETE FROM rollup_eft_rank k
   USING (SELECT DISTINCT * FROM unnest(cands)) c
   WHERE k.lo = c.lo AND k.hi = c.hi AND k.div_code = c.div_code AND k.tte_id = c.tte_id;
  WITH sums AS (
    SELECT c.lo, c.hi, r.tte_id, r.lobby_code, r.div_code, r.zone_code,
           sum(r.efts)::int AS eft_count,
           count(*) FILTER (WHERE r.pair_prev_date IS NULL OR r.pair_prev_date < c.lo)::int AS trains_worked,
           sum(r.total) AS amount, sum(r.cash) AS cash, sum(r.digital) AS digital,
           round(100.0 * sum(r.digital_efts) / sum(r.efts), 1) AS digital_pct
      FROM (SELECT DISTINCT * FROM unnest(cands)) c
      JOIN rollup_efts r ON r.div_code = c.div_code AND r.tte_id = c.tte_id AND r.issue_date BETWEEN c.lo AND c.hi
     GROUP BY c.lo, c.hi, r.tte_id, r.lobby_code, r.div_code, r.zone_code
  ), before_bound AS (
    SELECT s.*, row_number() OVER (PARTITION BY s.lo, s.hi ORDER BY s.amount DESC, s.tte_id, s.lobby_code, s.div_code, s.zone_code) AS n
      FROM sums s
      JOIN rollup_eft_rank_range g ON g.lo = s.lo AND g.hi = s.hi
     WHERE g.bound_amount IS NULL
        OR s.amount > g.bound_amount
        OR (s.amount = g.bound_amount AND (s.tte_id, s.lobby_code, s.div_code, s.zone_code) < (g.bound_tte, g.bound_lobby, g.bound_div, g.bound_zone))
  ), added AS (
    INSERT INTO rollup_eft_rank (lo, hi, tte_id, lobby_code, div_code, zone_code, eft_count, trains_worked, amount, cash, digital, digital_pct)
    SELECT b.lo, b.hi, b.tte_id, b.lobby_code, b.div_code, b.zone_code, b.eft_count, b.trains_worked, b.amount, b.cash, b.digital, b.digital_pct
      FROM before_bound b
     WHERE b.n <= depth + 1
    RETURNING lo, hi
  )
  SELECT array_agg(DISTINCT (a.lo, a.hi, NULL, NULL)::hht_eft_rank_key) INTO grown FROM added a;
  -- Only a range that took rows can be past its depth.
  WITH over AS (
    SELECT k.lo, k.hi
      FROM rollup_eft_rank k
      JOIN unnest(COALESCE(grown, '{}')) a ON a.lo = k.lo AND a.hi = k.hi
     GROUP BY k.lo, k.hi
    HAVING count(*) > depth
  ), ranked AS (
    SELECT k.lo, k.hi, k.tte_id, k.lobby_code, k.div_code, k.zone_code, k.amount,
           row_number() OVER (PARTITION BY k.lo, k.hi ORDER BY k.amount DESC, k.tte_id, k.lobby_code, k.div_code, k.zone_code) AS n
      FROM rollup_eft_rank k
      JOIN over o ON o.lo = k.lo AND o.hi = k.hi
  ), bounds AS (
    UPDATE rollup_eft_rank_range g
       SET bound_amount = r.amount, bound_tte = r.tte_id, bound_lobby = r.lobby_code, bound_div = r.div_code, bound_zone = r.zone_code
      FROM ranked r
     WHERE r.n = depth + 1 AND g.lo = r.lo AND g.hi = r.hi
  )
  DELETE FROM rollup_eft_rank k
   USING ranked r
   WHERE r.n > depth AND k.lo = r.lo AND k.hi = r.hi AND k.div_code = r.div_code AND k.tte_id = r.tte_id
     AND k.lobby_code = r.lobby_code AND k.zone_code = r.zone_code;
END
$$;

-- Opens the 32 ranges that end at date d: [lo, d] starts as [lo, d - 1] (same bound, same rows) and takes the TTEs of
-- date d; [d, d] starts empty and whole. With no range ending at d - 1 at all (the first date, or one after a date
-- without EFTs) [lo, d] starts empty and whole and takes every TTE of its dates. A [lo, d - 1] missing while others end
-- at d - 1 was let go by retention (its dates are gone): [lo, d] is not kept either.
CREATE FUNCTION hht_eft_rank_open(d date) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  restart boolean := NOT EXISTS (SELECT 1 FROM rollup_eft_rank_range WHERE hi = d - 1);
BEGIN
  INSERT INTO rollup_eft_rank_range (lo, hi, bound_amount, bound_tte, bound_lobby, bound_div, bound_zone)
  SELECT d - i, d, p.bound_amount, p.bound_tte, p.bound_lobby, p.bound_div, p.bound_zone
    FROM generate_series(0, 31) AS i
    LEFT JOIN rollup_eft_rank_range p ON p.lo = d - i AND p.hi = d - 1
   WHERE i = 0 OR p.lo IS NOT NULL OR restart;
  INSERT INTO rollup_eft_rank (lo, hi, tte_id, lobby_code, div_code, zone_code, eft_count, trains_worked, amount, cash, digital, digital_pct)
  SELECT k.lo, d, k.tte_id, k.lobby_code, k.div_code, k.zone_code, k.eft_count, k.trains_worked, k.amount, k.cash, k.digital, k.digital_pct
    FROM rollup_eft_rank k
   WHERE k.hi = d - 1 AND k.lo >= d - 31;
  PERFORM hht_eft_rank_merge(ARRAY(
    SELECT DISTINCT (g.lo, d, r.div_code, r.tte_id)::hht_eft_rank_key
      FROM rollup_eft_rank_range g
      JOIN rollup_efts r ON r.issue_date BETWEEN CASE WHEN restart THEN g.lo ELSE d END AND d
     WHERE g.hi = d));
END
$$;

-- Keeps the ranked rows current after the rollup rows of the given (issue date, division, TTE) changed (before and
-- after a run refresh): dates after the last one with ranges get theirs, oldest first (ranges are opened going
-- forward, as days arrive: an older date without them, one retention let go or one loaded out of order, stays without,
-- and the report groups its ranges); every kept range holding a changed date recomputes the changed TTEs (but a just
-- opened range, for its own last date, which it read whole).
CREATE FUNCTION hht_fill_eft_rank(keys hht_day_division_tte[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  d date;
  opened date[] := '{}';
BEGIN
  IF cardinality(keys) = 0 THEN
    RETURN;
  END IF;
  -- The ranges are India-wide: one batch at a time changes them (a batch waits for the one before to commit).
  PERFORM pg_advisory_xact_lock(4242024, 0);
  FOR d IN SELECT DISTINCT k.event_date FROM unnest(keys) k
            WHERE k.event_date > COALESCE((SELECT max(g.hi) FROM rollup_eft_rank_range g), '-infinity')
              AND EXISTS (SELECT 1 FROM rollup_efts r WHERE r.issue_date = k.event_date)
            ORDER BY 1 LOOP
    PERFORM hht_eft_rank_open(d);
    opened := opened || d;
  END LOOP;
  PERFORM hht_eft_rank_merge(ARRAY(
    SELECT DISTINCT (g.lo, g.hi, k.div_code, k.tte_id)::hht_eft_rank_key
      FROM unnest(keys) k
      JOIN rollup_eft_rank_range g ON k.event_date BETWEEN g.lo AND g.hi
     WHERE NOT (g.hi = ANY (opened) AND k.event_date = g.hi)));
END
$$;

-- Builds every range again from rollup_efts, oldest date first (migration, tests).
CREATE FUNCTION hht_build_eft_rank() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  d date;
BEGIN
  PERFORM pg_advisory_xact_lock(4242024, 0);
  DELETE FROM rollup_eft_rank;
  DELETE FROM rollup_eft_rank_range;
  FOR d IN SELECT DISTINCT issue_date FROM rollup_efts ORDER BY 1 LOOP
    PERFORM hht_eft_rank_open(d);
  END LOOP;
END
$$;

-- Retention, before the runs of the given run_id range are emptied: the ranges holding any of their EFT dates are let
-- go (redoing them would recompute every TTE of those dates in every such range); their dates are the oldest kept.
CREATE FUNCTION hht_forget_eft_rank(run_lo bigint, run_hi bigint) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  last date := (SELECT max(issue_date) FROM rollup_efts WHERE run_id >= run_lo AND run_id < run_hi);
BEGIN
  IF last IS NULL THEN
    RETURN;
  END IF;
  PERFORM pg_advisory_xact_lock(4242024, 0);
  DELETE FROM rollup_eft_rank WHERE lo <= last;
  DELETE FROM rollup_eft_rank_range WHERE lo <= last;
END
$$;

-- hht_fill_efts (migration 022) now also keeps the ranked rows of the TTEs its runs fed before and after; the day
-- rows' (date, division) pairs are those triples' own.
CREATE OR REPLACE FUNCTION hht_fill_efts(lo bigint, hi bigint) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  before hht_day_division_tte[];
  changed hht_day_division_tte[];
BEGIN
  SELECT array_agg(DISTINCT (issue_date, div_code, tte_id)::hht_day_division_tte) INTO before
    FROM rollup_efts WHERE run_id >= lo AND run_id < hi;
  PERFORM hht_fill_eft_runs(lo, hi);
  changed := ARRAY(
    SELECT DISTINCT k FROM (
      SELECT unnest(COALESCE(before, '{}')) AS k
      UNION ALL
      SELECT (issue_date, div_code, tte_id)::hht_day_division_tte FROM rollup_efts WHERE run_id >= lo AND run_id < hi
    ) u);
  PERFORM hht_fill_eft_day(ARRAY(SELECT DISTINCT (c.event_date, c.div_code)::hht_day_division FROM unnest(changed) c));
  PERFORM hht_fill_eft_rank(changed);
END
$$;

-- A database migrated with data gets its ranked rows now, and the planner their sizes.
SELECT hht_build_eft_rank();
ANALYZE rollup_eft_rank;
ANALYZE rollup_eft_rank_range;

GRANT SELECT ON rollup_eft_rank, rollup_eft_rank_range TO hht_report;
