-- Keeps the ranked rows current after the rollup rows of the given (issue date, division, TTE) changed (before and
-- after a run refresh): dates after the last one with ranges get theirs, oldest first (ranges are opened going
-- forward, as days arrive: an older date without them, one retention let go or one loaded out of order, stays without,
-- and the report groups its ranges); every kept range holding a changed date recomputes the changed TTEs (but a just
-- opened range, for its own last date, which it read whole).
CREATE OR REPLACE FUNCTION hht_fill_eft_rank(keys hht_day_division_tte[]) RETURNS void LANGUAGE plpgsql AS $$
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
