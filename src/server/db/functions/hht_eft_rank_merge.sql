-- Recomputes the given TTEs over the given ranges from rollup_efts: kept if before the range's bound, and ranges past
-- their depth cut back to it. Of a range's candidates only its first depth + 1 can stay (any later one has depth + 1
-- rows before it), so no more are written: opening a date takes thousands of TTEs into each range. Its look-ups are
-- by key in small, cached tables: at the default cost of a random page (4, a disk's) the planner read all of
-- rollup_eft_rank to delete a sync's few hundred candidates (7 ms at national size, against 1.2 by its index).
CREATE OR REPLACE FUNCTION hht_eft_rank_merge(cands hht_eft_rank_key[]) RETURNS void LANGUAGE plpgsql SET random_page_cost = 1.1 AS $$
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
