-- rollup_sync_day: sync delay per IST event date and division (lobby_code NULL) and per lobby, redone for the given
-- (date, division) pairs from rollup_sync. Each row carries its own distinct HHT and TTE counts.
CREATE OR REPLACE FUNCTION hht_fill_sync_day(keys hht_day_division[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  b int;
BEGIN
  -- As in migration 018: one batch at a time per (date, division), in 64 lock buckets taken in order.
  FOR b IN SELECT DISTINCT hashtext(u.event_date::text || '/' || u.div_code) & 63 FROM unnest(keys) u ORDER BY 1 LOOP
    PERFORM pg_advisory_xact_lock(4242018, b);
  END LOOP;
  DELETE FROM rollup_sync_day s USING unnest(keys) u WHERE s.event_date = u.event_date AND s.div_code = u.div_code;
  INSERT INTO rollup_sync_day (event_date, zone_code, div_code, lobby_code, events, pending, synced, delay_min_sum,
                               max_delay_min, delayed_over_30, hhts, sync_rows, ttes)
  SELECT ce.event_date, ce.zone_code, ce.div_code, ce.lobby_code,
         sum(ce.events), sum(ce.pending), sum(ce.synced), sum(ce.delay_min_sum), max(ce.max_delay_min),
         sum(ce.delayed_over_30), count(DISTINCT ce.device_id), count(*), count(DISTINCT ce.tte_id)
    FROM rollup_sync ce
    JOIN (SELECT DISTINCT event_date, div_code FROM unnest(keys)) u ON u.event_date = ce.event_date AND u.div_code = ce.div_code
   GROUP BY GROUPING SETS ((ce.event_date, ce.zone_code, ce.div_code, ce.lobby_code), (ce.event_date, ce.zone_code, ce.div_code));
END
$$;
