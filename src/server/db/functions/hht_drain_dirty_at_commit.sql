-- The deferred constraint trigger on hht_dirty: fires at commit for each dirty row; the first drains them all, the
-- others find the set empty.
CREATE OR REPLACE FUNCTION hht_drain_dirty_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM hht_drain_dirty();
  RETURN NULL;
END
$$;
