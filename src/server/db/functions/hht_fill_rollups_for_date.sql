-- The rollups of every run of one run date.
CREATE OR REPLACE FUNCTION hht_fill_rollups_for_date(d date) RETURNS void LANGUAGE sql AS $$
  SELECT hht_fill_rollups((d - date '2000-01-01')::bigint * 100000, (d - date '2000-01-01' + 1)::bigint * 100000)
$$;
