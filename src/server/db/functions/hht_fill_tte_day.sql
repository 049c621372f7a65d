-- rollup_tte_day: Active Users' rows (one per IST event date and TTE), redone for the given pairs from rollup_sync.
CREATE OR REPLACE FUNCTION hht_fill_tte_day(keys hht_day_tte[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  b int;
BEGIN
  -- As hht_fill_sync_day: one batch at a time per key, in 64 lock buckets (a seeded day has ~20,000 keys).
  FOR b IN SELECT DISTINCT hashtext(u.event_date::text || '/' || u.tte_id) & 63 FROM unnest(keys) u ORDER BY 1 LOOP
    PERFORM pg_advisory_xact_lock(4242019, b);
  END LOOP;
  DELETE FROM rollup_tte_day s USING (SELECT DISTINCT event_date, tte_id FROM unnest(keys)) u
   WHERE s.event_date = u.event_date AND s.tte_id = u.tte_id;
  INSERT INTO rollup_tte_day
  SELECT ce.event_date, ce.zone_code, ce.div_code, ce.lobby_code, ce.tte_id,
         string_agg(DISTINCT ce.device_id, ', '), string_agg(DISTINCT ce.train_no, ', '),
         sum(ce.events), sum(ce.pending), min(ce.first_event_at), max(ce.last_event_at), max(ce.last_sync_at)
    FROM rollup_sync ce
    JOIN (SELECT DISTINCT event_date, tte_id FROM unnest(keys)) u ON u.event_date = ce.event_date AND u.tte_id = ce.tte_id
   GROUP BY ce.event_date, ce.zone_code, ce.div_code, ce.lobby_code, ce.tte_id;
END
$$;
