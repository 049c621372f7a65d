-- How many rollup repairs the auditor has made (one per run and table found to differ from its reference).
CREATE OR REPLACE FUNCTION hht_rollup_repairs() RETURNS bigint LANGUAGE sql STABLE AS $$
  SELECT count(*) FROM hht_rollup_repairs
$$;
