-- Domain model of HHT train checking. Every fact row carries zone_code/div_code (and lobby_code where a
-- lobby is meaningful) so that row scope is a plain indexed predicate. Keys are deterministic (derived from
-- train number, date and sequence) so the same seed date always yields the same rows.

CREATE TABLE zones (
  zone_code text PRIMARY KEY,
  name text NOT NULL
);

CREATE TABLE divisions (
  div_code text PRIMARY KEY,
  zone_code text NOT NULL REFERENCES zones,
  name text NOT NULL
);

CREATE TABLE stations (
  station_code text PRIMARY KEY,
  name text NOT NULL,
  zone_code text NOT NULL REFERENCES zones,
  div_code text NOT NULL REFERENCES divisions
);

CREATE TABLE lobbies (
  lobby_code text PRIMARY KEY,
  name text NOT NULL,
  station_code text NOT NULL REFERENCES stations,
  zone_code text NOT NULL REFERENCES zones,
  div_code text NOT NULL REFERENCES divisions
);

-- Offices: HQ (zonal headquarters), ZN (zonal office), DV (divisional office), PTS, CTCRB (special offices).
CREATE TABLE offices (
  off_code text PRIMARY KEY,
  off_type text NOT NULL,
  name text NOT NULL,
  zone_code text REFERENCES zones,
  div_code text REFERENCES divisions
);

-- Portal users. Passwords only as bcrypt hashes. The level decides scope (spec section 6).
CREATE TABLE users (
  user_id text PRIMARY KEY,
  password_hash text NOT NULL,
  name text NOT NULL,
  designation text NOT NULL,
  user_level text NOT NULL CHECK (user_level IN ('SU', 'ZA', 'ZU', 'DA', 'DU', 'LA', 'LU', 'RO')),
  rly_code text,
  div_code text,
  lobby_code text,
  off_code text,
  off_type text,
  mobile_no text NOT NULL,
  active boolean NOT NULL DEFAULT true
);

CREATE TABLE trains (
  train_no text PRIMARY KEY CHECK (train_no ~ '^[0-9]{5}$'),
  name text NOT NULL,
  train_type text NOT NULL,            -- RAJDHANI, SHATABDI, DURONTO, VANDE_BHARAT, SUPERFAST, MAIL_EXP
  src_station text NOT NULL REFERENCES stations,
  dest_station text NOT NULL REFERENCES stations,
  zone_code text NOT NULL REFERENCES zones,   -- owning (primary maintenance) zone and division
  div_code text NOT NULL REFERENCES divisions,
  run_days text NOT NULL CHECK (run_days ~ '^[YN]{7}$'), -- Monday..Sunday
  dynamic_fare boolean NOT NULL DEFAULT false
);

-- Timetable: times as 'HH:MM' and day of journey (1 = start day), distance from source in km.
CREATE TABLE train_stops (
  train_no text NOT NULL REFERENCES trains,
  seq int NOT NULL,
  station_code text NOT NULL REFERENCES stations,
  arr_time text,                        -- NULL at source
  dep_time text,                        -- NULL at destination
  day_no int NOT NULL,
  distance_km int NOT NULL,
  halt_min int NOT NULL DEFAULT 0,
  PRIMARY KEY (train_no, seq)
);

-- Standard composition of a train's reserved coaches.
CREATE TABLE train_consist (
  train_no text NOT NULL REFERENCES trains,
  seq int NOT NULL,
  coach_id text NOT NULL,               -- B1, A1, S3, C2 ...
  class text NOT NULL,                  -- 1A 2A 3A 3E SL CC EC 2S
  capacity int NOT NULL,
  PRIMARY KEY (train_no, seq)
);

-- One row per train per start date. run_id = (start_date - 2000-01-01) * 100000 + train_no.
CREATE TABLE train_runs (
  run_id bigint PRIMARY KEY,
  train_no text NOT NULL REFERENCES trains,
  start_date date NOT NULL,
  zone_code text NOT NULL,
  div_code text NOT NULL,
  chart1_at timestamptz,
  chart2_at timestamptz,
  hht_download_at timestamptz,
  delay_min int NOT NULL DEFAULT 0,     -- running delay used by the train strip
  UNIQUE (train_no, start_date)
);
CREATE INDEX train_runs_date ON train_runs (start_date, div_code);

CREATE TABLE run_coaches (
  run_id bigint NOT NULL REFERENCES train_runs,
  coach_id text NOT NULL,
  seq int NOT NULL,
  class text NOT NULL,
  capacity int NOT NULL,
  PRIMARY KEY (run_id, coach_id)
);

CREATE TABLE ttes (
  tte_id text PRIMARY KEY,
  name text NOT NULL,
  designation text NOT NULL,            -- TTE, Sr. TTE, CTI, TS
  mobile_no text NOT NULL,
  lobby_code text NOT NULL REFERENCES lobbies,
  zone_code text NOT NULL,
  div_code text NOT NULL
);

-- HHT devices. version supports optimistic concurrency on updates.
CREATE TABLE devices (
  device_id text PRIMARY KEY,
  serial_no text NOT NULL UNIQUE,
  imei text NOT NULL UNIQUE,
  make text NOT NULL,
  model text NOT NULL,
  app_version text NOT NULL,
  status text NOT NULL CHECK (status IN ('IN_SERVICE', 'UNDER_REPAIR', 'LOST', 'WITHDRAWN')),
  zone_code text NOT NULL,
  div_code text NOT NULL,
  lobby_code text NOT NULL REFERENCES lobbies,
  assigned_tte_id text REFERENCES ttes,
  registered_on date NOT NULL,
  last_sync_at timestamptz,
  version int NOT NULL DEFAULT 1,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text
);

-- A TTE's beat on a train run: section of route, coaches, HHT, sign on/off and Train Working Report.
CREATE TABLE beats (
  beat_id bigint PRIMARY KEY,           -- run_id * 10 + beat number
  run_id bigint NOT NULL REFERENCES train_runs,
  beat_no int NOT NULL,
  tte_id text NOT NULL REFERENCES ttes,
  device_id text REFERENCES devices,
  zone_code text NOT NULL,
  div_code text NOT NULL,
  lobby_code text NOT NULL,
  from_station text NOT NULL,
  to_station text NOT NULL,
  coaches text[] NOT NULL,
  sign_on_id text NOT NULL UNIQUE,
  trip_id text NOT NULL UNIQUE,
  sign_on_at timestamptz,
  sign_off_at timestamptz,
  twr_status text NOT NULL CHECK (twr_status IN ('SUBMITTED', 'NOT_SUBMITTED', 'EMPTY')),
  twr_submitted_at timestamptz
);
CREATE INDEX beats_run ON beats (run_id);
CREATE INDEX beats_tte ON beats (tte_id);

CREATE TABLE pnrs (
  pnr text PRIMARY KEY CHECK (pnr ~ '^[0-9]{10}$'),
  run_id bigint NOT NULL REFERENCES train_runs,
  class text NOT NULL,
  quota text NOT NULL,
  from_station text NOT NULL,
  to_station text NOT NULL,
  booked_at timestamptz NOT NULL,
  channel text NOT NULL,                -- E_TICKET, COUNTER
  total_fare numeric(10, 2) NOT NULL,
  zone_code text NOT NULL,
  div_code text NOT NULL
);
CREATE INDEX pnrs_run ON pnrs (run_id);

-- Passengers with booking and current (post-chart) status and the TTE's latest mark.
CREATE TABLE passengers (
  psgn_id bigint PRIMARY KEY,           -- run_id * 10000 + sequence
  pnr text NOT NULL REFERENCES pnrs,
  run_id bigint NOT NULL REFERENCES train_runs,
  psgn_no int NOT NULL,
  name text NOT NULL,
  age int NOT NULL,
  gender text NOT NULL CHECK (gender IN ('M', 'F', 'T')),
  mobile_no text NOT NULL,
  class text NOT NULL,
  quota text NOT NULL,
  booking_status text NOT NULL,         -- CNF, RAC 12, GNWL 40 ...
  current_status text NOT NULL,         -- after charting: CNF, RAC n, WL n, CAN
  coach_id text,
  berth_no int,
  berth_type text,                      -- LB MB UB SL SU WS MS AS
  from_station text NOT NULL,
  to_station text NOT NULL,
  fare numeric(10, 2) NOT NULL,
  mark text CHECK (mark IN ('O', 'NT')),
  marked_at timestamptz,
  marked_by text,
  zone_code text NOT NULL,
  div_code text NOT NULL,
  lobby_code text
);
CREATE INDEX passengers_run ON passengers (run_id, coach_id);
CREATE INDEX passengers_pnr ON passengers (pnr);

-- Every HHT event: O, NT, SHIFTED, GOT_DOWN, ALLOTTED; device time and server sync time.
CREATE TABLE checking_events (
  event_id bigint PRIMARY KEY,
  run_id bigint NOT NULL REFERENCES train_runs,
  beat_id bigint NOT NULL REFERENCES beats,
  psgn_id bigint REFERENCES passengers,
  tte_id text NOT NULL,
  device_id text,
  event_type text NOT NULL CHECK (event_type IN ('O', 'NT', 'SHIFTED', 'GOT_DOWN', 'ALLOTTED')),
  coach_id text,
  berth_no int,
  new_coach_id text,
  new_berth_no int,
  station_code text,
  device_time timestamptz NOT NULL,
  sync_time timestamptz,                -- NULL while pending on the device
  zone_code text NOT NULL,
  div_code text NOT NULL,
  lobby_code text NOT NULL
);
CREATE INDEX checking_events_run ON checking_events (run_id, event_type);
CREATE INDEX checking_events_sync ON checking_events (device_time);

CREATE TABLE vacant_berths (
  run_id bigint NOT NULL REFERENCES train_runs,
  coach_id text NOT NULL,
  berth_no int NOT NULL,
  berth_type text NOT NULL,
  class text NOT NULL,
  from_station text NOT NULL,
  to_station text NOT NULL,
  reason text NOT NULL CHECK (reason IN ('NT', 'CANCELLED', 'UNSOLD', 'GOT_DOWN')),
  released_to_prs boolean NOT NULL DEFAULT false,
  released_at timestamptz,
  released_by text,
  rebooked boolean NOT NULL DEFAULT false,
  zone_code text NOT NULL,
  div_code text NOT NULL,
  lobby_code text,
  PRIMARY KEY (run_id, coach_id, berth_no, from_station)
);

-- RAC/WL passengers given a berth on board (RAC first, then waitlist).
CREATE TABLE reallocations (
  realloc_id bigint PRIMARY KEY,
  run_id bigint NOT NULL REFERENCES train_runs,
  psgn_id bigint NOT NULL REFERENCES passengers,
  pnr text NOT NULL,
  prev_status text NOT NULL,
  coach_id text NOT NULL,
  berth_no int NOT NULL,
  from_station text NOT NULL,
  to_station text NOT NULL,
  allotted_at timestamptz NOT NULL,
  tte_id text NOT NULL,
  eft_no text,
  zone_code text NOT NULL,
  div_code text NOT NULL,
  lobby_code text
);
CREATE INDEX reallocations_run ON reallocations (run_id);

-- Excess Fare Tickets issued on board (minimum penalty Rs 250).
CREATE TABLE efts (
  eft_no text PRIMARY KEY,
  run_id bigint NOT NULL REFERENCES train_runs,
  beat_id bigint NOT NULL REFERENCES beats,
  trip_id text NOT NULL,
  tte_id text NOT NULL,
  device_id text,
  pnr text,
  psgn_name text NOT NULL,
  coach_id text,
  from_station text NOT NULL,
  to_station text NOT NULL,
  reason text NOT NULL CHECK (reason IN ('UPGRADE', 'TICKETLESS', 'BERTH_CHARGE', 'EXTENSION', 'IRREGULAR')),
  excess_fare numeric(10, 2) NOT NULL,
  excess_charge numeric(10, 2) NOT NULL,
  total numeric(10, 2) NOT NULL,
  payment_mode text NOT NULL CHECK (payment_mode IN ('CASH', 'CARD', 'UPI')),
  issued_at timestamptz NOT NULL,
  synced_at timestamptz,
  zone_code text NOT NULL,
  div_code text NOT NULL,
  lobby_code text NOT NULL
);
CREATE INDEX efts_run ON efts (run_id);
CREATE INDEX efts_issued ON efts (issued_at);
CREATE INDEX efts_trip ON efts (trip_id);

CREATE TABLE digital_payments (
  txn_id text PRIMARY KEY,
  eft_no text NOT NULL REFERENCES efts,
  amount numeric(10, 2) NOT NULL,
  mode text NOT NULL CHECK (mode IN ('CARD', 'UPI')),
  status text NOT NULL CHECK (status IN ('SUCCESS', 'FAILED', 'PENDING')),
  txn_at timestamptz NOT NULL,
  tte_id text NOT NULL,
  pos_id text NOT NULL,
  sign_on_id text NOT NULL,
  zone_code text NOT NULL,
  div_code text NOT NULL,
  lobby_code text NOT NULL
);
CREATE INDEX digital_payments_at ON digital_payments (txn_at);

CREATE TABLE tdrs (
  tdr_id text PRIMARY KEY,
  pnr text NOT NULL REFERENCES pnrs,
  run_id bigint NOT NULL REFERENCES train_runs,
  reason text NOT NULL,                 -- AC_FAILURE, NOT_TRAVELLED, TRAIN_LATE, PARTY_PARTIALLY_TRAVELLED, ...
  coach_id text,
  class text NOT NULL,
  filed_at timestamptz NOT NULL,
  certificate_no text,                  -- EFT or GC number attested by the TTE
  tte_remark text,
  status text NOT NULL CHECK (status IN ('FILED', 'ATTESTED', 'REFUNDED', 'REJECTED')),
  refund_amount numeric(10, 2),
  zone_code text NOT NULL,
  div_code text NOT NULL
);
CREATE INDEX tdrs_run ON tdrs (run_id);

CREATE TABLE coach_deficiencies (
  deficiency_id bigint PRIMARY KEY,
  run_id bigint NOT NULL REFERENCES train_runs,
  coach_id text NOT NULL,
  category text NOT NULL,               -- WATER, ELECTRICAL, AC, FITTINGS, BEDROLL, CLEANLINESS
  description text NOT NULL,
  station_code text NOT NULL,
  reported_at timestamptz NOT NULL,
  tte_id text NOT NULL,
  status text NOT NULL CHECK (status IN ('OPEN', 'CLOSED')),
  closed_at timestamptz,
  zone_code text NOT NULL,
  div_code text NOT NULL,
  lobby_code text
);
CREATE INDEX coach_deficiencies_run ON coach_deficiencies (run_id);

CREATE TABLE complaints (
  ref_no text PRIMARY KEY,
  run_id bigint NOT NULL REFERENCES train_runs,
  category text NOT NULL,
  sub_category text NOT NULL,
  coach_id text,
  berth_no int,
  registered_at timestamptz NOT NULL,
  resolved_at timestamptz,
  sla_hours int NOT NULL,
  status text NOT NULL CHECK (status IN ('OPEN', 'RESOLVED', 'CLOSED')),
  zone_code text NOT NULL,
  div_code text NOT NULL
);
CREATE INDEX complaints_run ON complaints (run_id);

-- Flexi fare per class on Rajdhani/Shatabdi/Duronto runs (not 1A/EC).
CREATE TABLE dynamic_fares (
  run_id bigint NOT NULL REFERENCES train_runs,
  class text NOT NULL,
  base_fare numeric(10, 2) NOT NULL,
  last_fare numeric(10, 2) NOT NULL,
  slab int NOT NULL,
  share_sold_pct numeric(5, 2) NOT NULL,
  zone_code text NOT NULL,
  div_code text NOT NULL,
  PRIMARY KEY (run_id, class)
);

CREATE TABLE onboard_staff (
  staff_row_id bigint PRIMARY KEY,
  run_id bigint NOT NULL REFERENCES train_runs,
  staff_type text NOT NULL,             -- TTE, COACH_ATTENDANT, CATERING, RPF, ELECTRICIAN, HOUSEKEEPING
  staff_id text NOT NULL,
  name text NOT NULL,
  mobile_no text NOT NULL,
  coaches text[] NOT NULL,
  zone_code text NOT NULL,
  div_code text NOT NULL
);
CREATE INDEX onboard_staff_run ON onboard_staff (run_id);

-- Fully waitlisted e-tickets dropped at charting; found_travelling means the holder was on board.
CREATE TABLE dropped_etickets (
  pnr text NOT NULL,
  psgn_no int NOT NULL,
  run_id bigint NOT NULL REFERENCES train_runs,
  name text NOT NULL,
  booking_status text NOT NULL,
  class text NOT NULL,
  from_station text NOT NULL,
  to_station text NOT NULL,
  dropped_at timestamptz NOT NULL,
  found_travelling boolean NOT NULL,
  eft_no text,
  zone_code text NOT NULL,
  div_code text NOT NULL,
  PRIMARY KEY (pnr, psgn_no)
);
CREATE INDEX dropped_etickets_run ON dropped_etickets (run_id);

-- What the seed generated, so start-up can fill missing days of the rolling window.
CREATE TABLE seed_state (
  id int PRIMARY KEY CHECK (id = 1),
  scale text NOT NULL,
  seeded_at timestamptz NOT NULL,
  last_run_date date NOT NULL
);
