-- Redoes the day rows of the given (issue date, division) pairs and of the 31 dates after each in its division: an
-- EFT date of a TTE added or gone changes the gap of that TTE's next EFT date. Live EFTs arrive for today, so the
-- later dates are mostly not there yet.
CREATE OR REPLACE FUNCTION hht_fill_eft_day(keys hht_day_division[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- One batch at a time per division: its dates depend on each other.
  PERFORM hht_lock_buckets(4242022, ARRAY(SELECT u.div_code FROM unnest(keys) u));
  DELETE FROM rollup_eft_day d
   USING (SELECT u.div_code, min(u.event_date) AS lo, max(u.event_date) + 31 AS hi FROM unnest(keys) u GROUP BY u.div_code) s
   WHERE d.div_code = s.div_code AND d.issue_date BETWEEN s.lo AND s.hi;
  WITH span AS (
    SELECT u.div_code, min(u.event_date) AS lo, max(u.event_date) + 31 AS hi FROM unnest(keys) u GROUP BY u.div_code
  ), r AS (
    SELECT r.* FROM rollup_efts r JOIN span s ON r.div_code = s.div_code AND r.issue_date BETWEEN s.lo AND s.hi
  ), sums AS (
    SELECT r.issue_date, r.zone_code, r.div_code, r.lobby_code, sum(r.efts)::int AS efts, sum(r.digital_efts)::int AS digital_efts,
           sum(r.total) AS total, sum(r.cash) AS cash, sum(r.digital) AS digital, sum(r.card) AS card, sum(r.upi) AS upi
      FROM r
     GROUP BY GROUPING SETS ((r.issue_date, r.zone_code, r.div_code, r.lobby_code), (r.issue_date, r.zone_code, r.div_code))
  ), gaps AS (
    -- Days since the TTE's previous EFT date in the lobby (lobby rows) or the division (division rows); 32: none.
    SELECT t.issue_date, t.zone_code, t.div_code, t.lobby_code,
           COALESCE(t.issue_date - (SELECT max(p.issue_date) FROM rollup_efts p
                                     WHERE p.div_code = t.div_code AND p.tte_id = t.tte_id AND p.lobby_code = t.lobby_code
                                       AND p.issue_date < t.issue_date AND p.issue_date >= t.issue_date - 31), 32) AS gap
      FROM (SELECT DISTINCT r.issue_date, r.zone_code, r.div_code, r.lobby_code, r.tte_id FROM r) t
    UNION ALL
    SELECT t.issue_date, t.zone_code, t.div_code, NULL,
           COALESCE(t.issue_date - (SELECT max(p.issue_date) FROM rollup_efts p
                                     WHERE p.div_code = t.div_code AND p.tte_id = t.tte_id
                                       AND p.issue_date < t.issue_date AND p.issue_date >= t.issue_date - 31), 32)
      FROM (SELECT DISTINCT r.issue_date, r.zone_code, r.div_code, r.tte_id FROM r) t
  ), since AS (
    SELECT c.issue_date, c.zone_code, c.div_code, c.lobby_code, array_agg(c.n ORDER BY c.i) AS ttes_since
      FROM (SELECT g.issue_date, g.zone_code, g.div_code, g.lobby_code, i, count(*) FILTER (WHERE g.gap >= i)::int AS n
              FROM gaps g CROSS JOIN generate_series(1, 32) AS i
             GROUP BY g.issue_date, g.zone_code, g.div_code, g.lobby_code, i) c
     GROUP BY c.issue_date, c.zone_code, c.div_code, c.lobby_code
  )
  INSERT INTO rollup_eft_day
  SELECT s.issue_date, s.zone_code, s.div_code, s.lobby_code, s.efts, s.digital_efts, s.total, s.cash, s.digital, s.card, s.upi,
         c.ttes_since
    FROM sums s
    JOIN since c ON c.issue_date = s.issue_date AND c.zone_code = s.zone_code AND c.div_code = s.div_code
                AND c.lobby_code IS NOT DISTINCT FROM s.lobby_code;
END
$$;
