-- Berth Allotment Anomaly at national volume: its rows are kept per run (hht_fill_alloc_anomalies, the 'allotments'
-- part of hht_fill_rollups, fed by reallocations, passengers, checking_events, train_runs and train_stops), so the
-- report reads a day's few hundred anomalies instead of working them out from some 40,000 passengers looked up by
-- berth and their stops at every call.
CREATE TABLE rollup_allot_anomalies (
  run_id bigint NOT NULL,
  realloc_id bigint NOT NULL,
  anomaly text NOT NULL,
  other_pnr text,
  -- The other allotment of a double allotment between two allotments (the report keeps it to the user's scope).
  other_realloc_id bigint,
  detail text NOT NULL
);
CREATE INDEX rollup_allot_anomalies_run ON rollup_allot_anomalies (run_id);
GRANT SELECT ON rollup_allot_anomalies TO hht_report;

-- Every run already loaded is worked out by the drain that follows the migrations (the function files go in first).
INSERT INTO hht_dirty (run_id, source) SELECT NULL, 'reallocations' WHERE EXISTS (SELECT 1 FROM reallocations);
