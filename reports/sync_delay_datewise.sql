-- SyncDelayDateWise {srcDate}: per IST date (the 7 days ending srcDate), zone and division: events, HHTs,
-- pending records, average and maximum sync delay, events that took over 30 minutes to arrive.
-- Reads the day rollup (migration 018): a row per (date, division) and per (date, division, lobby), so what it
-- reads does not grow with the day's trains. Users who see a whole division (or more) get the division rows; lobby
-- users see only their lobby's rows (the division rows have no lobby), whose HHT count is their lobby's. The delay
-- sums are exact, so the averages equal those of the raw events.
SELECT ce.event_date,
       ce.zone_code AS zone,
       ce.div_code AS division,
       sum(ce.events)::int AS events,
       sum(ce.hhts)::int AS hhts,
       sum(ce.pending)::int AS pending_records,
       round(sum(ce.delay_min_sum) / NULLIF(sum(ce.synced), 0), 1) AS avg_delay_min,
       round(max(ce.max_delay_min), 1) AS max_delay_min,
       sum(ce.delayed_over_30)::int AS delayed_over_30
  FROM (SELECT ce.*, bool_or(ce.lobby_code IS NULL) OVER (PARTITION BY ce.event_date, ce.div_code) AS division_visible
          FROM rollup_sync_day ce
         WHERE ce.event_date BETWEEN :srcDate::date - 6 AND :srcDate::date
           AND {{scope}}) ce
 WHERE (ce.lobby_code IS NULL) = ce.division_visible
 GROUP BY ce.event_date, ce.zone_code, ce.div_code
 ORDER BY ce.event_date DESC, zone, division
