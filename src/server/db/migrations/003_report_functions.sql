-- Helpers for report SQL. Personal data is masked in list reports (DOMAIN.md): 9812345612 -> 98XXXXXX12,
-- 'Ramesh Kumar' -> 'R***** K****'.
CREATE OR REPLACE FUNCTION mask_mobile(m text) RETURNS text
  LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN m IS NULL OR length(m) < 5 THEN m
              ELSE left(m, 2) || repeat('X', length(m) - 4) || right(m, 2) END
$$;

CREATE OR REPLACE FUNCTION mask_name(n text) RETURNS text
  LANGUAGE sql IMMUTABLE AS $$
  SELECT string_agg(left(w, 1) || repeat('*', greatest(length(w) - 1, 0)), ' ')
    FROM regexp_split_to_table(n, '\s+') AS w
$$;

-- IST calendar date of a timestamp: railway days are Indian days.
CREATE OR REPLACE FUNCTION ist_date(t timestamptz) RETURNS date
  LANGUAGE sql IMMUTABLE AS $$
  SELECT (t AT TIME ZONE 'Asia/Kolkata')::date
$$;
