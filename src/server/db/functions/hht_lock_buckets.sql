-- Takes, in order, the transaction's advisory locks of one class for the 64 buckets the names fall in: a batch waits
-- for another that holds one of its names (so each recomputes from the other's committed rows), two batches cannot
-- wait on each other, and a seed filling thousands of names holds at most 64 locks (max_locks_per_transaction).
CREATE OR REPLACE FUNCTION hht_lock_buckets(lock_class int, names text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  b int;
BEGIN
  FOR b IN SELECT DISTINCT hashtext(n) & 63 FROM unnest(names) AS n ORDER BY 1 LOOP
    PERFORM pg_advisory_xact_lock(lock_class, b);
  END LOOP;
END
$$;
