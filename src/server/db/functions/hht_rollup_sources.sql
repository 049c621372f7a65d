-- The tables the rollups read, and the parts of hht_fill_rollups a change to each makes stale. The one place that
-- says what feeds what: hht_watch_rollup_sources puts the dirty-set triggers on these tables, hht_drain_dirty
-- recomputes these parts. A rollup function that starts reading another table adds it here (the invariant suite,
-- tests/api/rollup-invariants.test.ts, fails until it does). digital_payments feeds the EFT part: digital money
-- counts only EFTs with a SUCCESS payment; train_stops feeds the allotment anomalies (stop sequences, departures).
CREATE OR REPLACE FUNCTION hht_rollup_sources() RETURNS TABLE (source text, parts text[]) LANGUAGE sql IMMUTABLE AS $$
  VALUES ('train_runs', ARRAY['passengers', 'sync', 'efts', 'tdrs', 'vacancies', 'manning', 'allotments']),
         ('run_coaches', ARRAY['manning']),
         ('beats', ARRAY['manning']),
         ('passengers', ARRAY['passengers', 'allotments']),
         ('checking_events', ARRAY['sync', 'allotments']),
         ('reallocations', ARRAY['allotments']),
         ('train_stops', ARRAY['allotments']),
         ('vacant_berths', ARRAY['vacancies']),
         ('efts', ARRAY['efts']),
         ('digital_payments', ARRAY['efts']),
         ('tdrs', ARRAY['tdrs'])
$$;
