-- Null TWR (getZeroBooking) at national volume: the two figures it needed a pass over a day's partition for, or a
-- count of some 220 passengers per listed beat, are now lookups.

-- Passengers not cancelled per run and coach: a beat's "booked in coaches" is the sum over its coaches (a few rows).
-- Kept with the other per-run rollups: the 'passengers' part of hht_fill_rollups (hht_fill_coach_booked).
CREATE TABLE rollup_coach_booked (
  run_id bigint NOT NULL,
  coach_id text NOT NULL,
  booked int NOT NULL,
  PRIMARY KEY (run_id, coach_id)
);
GRANT SELECT ON rollup_coach_booked TO hht_report;

-- The runs already loaded, from their passengers (later writes keep it through the dirty set).
INSERT INTO rollup_coach_booked
SELECT p.run_id, p.coach_id, count(*)
  FROM passengers p
 WHERE p.current_status <> 'CAN' AND p.coach_id IS NOT NULL
 GROUP BY p.run_id, p.coach_id;

-- Whether a beat marked anyone O or NT is one probe by (run, type, beat) instead of a pass over the day's marks.
-- (run_id, event_type, beat_id) serves every lookup (run_id, event_type) served, so it replaces it.
CREATE INDEX checking_events_run_beat ON checking_events (run_id, event_type, beat_id);
DROP INDEX checking_events_run;
