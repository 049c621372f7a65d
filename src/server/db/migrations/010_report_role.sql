-- The role report definition SQL runs as: it may read the domain tables and call the report
-- functions, and nothing else. Granted by explicit list, never "ALL TABLES", so a table added later (users,
-- auth_*, sessions, device credentials, feedback, audit trails, anything secret) stays closed to report SQL
-- until a migration grants it on purpose.
-- Roles belong to the whole cluster (several databases may share one, and may migrate at the same moment), so
-- it is created only when missing, and a concurrent creation elsewhere is not an error.
-- The portal's own login is made a member so it can switch to it (SET ROLE / the 'role' startup option).
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'hht_report') THEN
    BEGIN
      CREATE ROLE hht_report NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN
      NULL;
    END;
  END IF;
  IF NOT pg_has_role(current_user, 'hht_report', 'MEMBER') THEN
    EXECUTE format('GRANT hht_report TO %I', current_user);
  END IF;
END
$$;

GRANT USAGE ON SCHEMA public TO hht_report;
GRANT SELECT ON
  zones, divisions, stations, lobbies, offices,
  trains, train_stops, train_consist, train_runs, run_coaches,
  ttes, devices, beats, pnrs, passengers, checking_events,
  vacant_berths, reallocations, efts, digital_payments, tdrs,
  coach_deficiencies, complaints, dynamic_fares, onboard_staff, dropped_etickets
TO hht_report;

GRANT EXECUTE ON FUNCTION
  mask_mobile(text), mask_name(text), ist_date(timestamptz),
  run_coach_manning(bigint), run_coach_occupancy(bigint),
  stop_departure(date, int, text, text)
TO hht_report;
