-- Empties the dirty set and recomputes what it names, date by date, oldest first (the TTE-wise EFT ranges open
-- going forward). A date with few dirty runs among its runs is recomputed run by run, each with the parts its changed
-- tables feed; one with many (a seeded or dropped date: at least 8 and a third of its runs, or all of them) in one
-- call over its run_id range, which costs about what the runs would one by one but in a few statements (a run alone
-- costs its statements' fixed cost: a small date of 5 runs took 5 times a whole date's time run by run), and
-- consecutive such dates with the same parts in one call together (the day rows and TTE-wise EFT ranges they share
-- are then redone once). Returns how many (run, table) entries it drained.
--
-- Two transactions recomputing the same run must not each do so from a snapshot without the other's rows: the runs'
-- lock buckets are taken first, in order (all 64 for a range), so the second waits for the first to commit and then
-- reads its rows.
CREATE OR REPLACE FUNCTION hht_drain_dirty() RETURNS int LANGUAGE plpgsql AS $$
DECLARE
  gone hht_dirty[];
  whole_days bigint[];
  d record;
  r record;
  b int;
  -- Whole dates that follow each other with the same parts go in one call (a correction of a week's EFTs).
  span_lo bigint;
  span_hi bigint;
  span_day bigint;
  span_parts text[];
BEGIN
  WITH g AS (DELETE FROM hht_dirty RETURNING *)
  SELECT array_agg(g) INTO gone FROM g;
  IF gone IS NULL THEN
    RETURN 0;
  END IF;
  -- The dates recomputed whole: many of their runs are dirty (a seeded or dropped date). NULL: every run (TRUNCATE).
  SELECT array_agg(day) INTO whole_days FROM (
    SELECT u.run_id / 100000 AS day
      FROM unnest(gone) u
     GROUP BY 1
    HAVING u.run_id / 100000 IS NULL
        OR (count(DISTINCT u.run_id) >= 8
            AND count(DISTINCT u.run_id) * 3 >= (SELECT count(*) FROM train_runs t WHERE t.run_id BETWEEN min(u.run_id) AND max(u.run_id)))
        OR count(DISTINCT u.run_id) >= (SELECT count(*) FROM train_runs t
                                         WHERE t.run_id >= min(u.run_id) / 100000 * 100000 AND t.run_id < (min(u.run_id) / 100000 + 1) * 100000)
  ) w;
  -- Every lock bucket this drain needs, in order, before any recompute (two drains cannot wait on each other).
  FOR b IN
    SELECT g FROM generate_series(0, 63) g WHERE whole_days IS NOT NULL
    UNION
    SELECT DISTINCT (u.run_id % 64)::int FROM unnest(gone) u WHERE whole_days IS NULL
    ORDER BY 1
  LOOP
    PERFORM pg_advisory_xact_lock(4242025, b);
  END LOOP;
  FOR d IN
    SELECT u.run_id / 100000 AS day, min(u.run_id) AS lo, max(u.run_id) AS hi, array_agg(DISTINCT p ORDER BY p) AS parts
      FROM unnest(gone) u JOIN hht_rollup_sources() s ON s.source = u.source, unnest(s.parts) p
     GROUP BY 1 ORDER BY 1 NULLS FIRST
  LOOP
    IF span_lo IS NOT NULL AND (d.day = ANY (whole_days) AND d.day = span_day + 1 AND d.parts = span_parts) IS NOT TRUE THEN
      PERFORM hht_fill_rollups(span_lo, span_hi + 1, span_parts);
      span_lo := NULL;
    END IF;
    IF d.day IS NULL THEN
      PERFORM hht_fill_rollups(0, 9223372036854775807, d.parts);
    ELSIF d.day = ANY (whole_days) THEN
      span_lo := COALESCE(span_lo, d.lo);
      span_hi := d.hi;
      span_day := d.day;
      span_parts := d.parts;
    ELSE
      FOR r IN
        SELECT u.run_id, array_agg(DISTINCT p ORDER BY p) AS parts
          FROM unnest(gone) u JOIN hht_rollup_sources() s ON s.source = u.source, unnest(s.parts) p
         WHERE u.run_id / 100000 = d.day
         GROUP BY u.run_id ORDER BY u.run_id
      LOOP
        PERFORM hht_fill_rollups(r.run_id, r.run_id + 1, r.parts);
      END LOOP;
    END IF;
  END LOOP;
  IF span_lo IS NOT NULL THEN
    PERFORM hht_fill_rollups(span_lo, span_hi + 1, span_parts);
  END IF;
  RETURN cardinality(gone);
END
$$;
