-- The deferred constraint trigger on hht_dirty: fires at commit for each dirty row; the first drains them all, the
-- others find the set empty. A bulk load that sets hht.drain_later (SET LOCAL, deferRollupDrain in db/rollups.ts)
-- leaves its runs in the dirty set for one drain at its end (drainRollups): loading a window day by day and batch by
-- batch would otherwise recompute each run many times.
CREATE OR REPLACE FUNCTION hht_drain_dirty_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('hht.drain_later', true) = 'on' THEN
    RETURN NULL;
  END IF;
  PERFORM hht_drain_dirty();
  RETURN NULL;
END
$$;
