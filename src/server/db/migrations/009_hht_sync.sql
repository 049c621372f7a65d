-- Live HHT data: device credentials, the idempotency ledger of synced records and batches, and ids
-- for rows a terminal creates without knowing the server's keys.

-- One credential per issue: a random token shown once, only its SHA-256 kept. Revoking sets revoked_at.
CREATE TABLE hht_credentials (
  credential_id bigserial PRIMARY KEY,
  device_id text NOT NULL REFERENCES devices,
  token_sha256 text NOT NULL UNIQUE,
  issued_at timestamptz NOT NULL,
  issued_by text NOT NULL,
  revoked_at timestamptz,
  revoked_by text
);
CREATE INDEX hht_credentials_device ON hht_credentials (device_id);

-- Every batch stored, with the answer given: a batch sent again (a retry after a lost answer) gets the same answer.
CREATE TABLE hht_sync_batches (
  device_id text NOT NULL,
  batch_id text NOT NULL,
  received_at timestamptz NOT NULL,
  record_count int NOT NULL,
  stored_count int NOT NULL,
  PRIMARY KEY (device_id, batch_id)
);

-- Every record stored, by the device's own id for it: a record sent again in any batch is stored once.
CREATE TABLE hht_records (
  device_id text NOT NULL,
  record_id text NOT NULL,
  batch_id text NOT NULL,
  PRIMARY KEY (device_id, record_id)
);

-- Keys of checking events, allotments and deficiencies a terminal sends without one; far above the generator's
-- deterministic keys (run_id * 100000 + n < 10^15).
CREATE SEQUENCE hht_row_ids START WITH 100000000000000000;

-- Berth type from the class layout (the generator's berthType), for berths a terminal allots.
CREATE FUNCTION hht_berth_type(cls text, berth int) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT (CASE cls
    WHEN '1A' THEN ARRAY['LB','UB','LB','UB']
    WHEN '2A' THEN ARRAY['LB','UB','LB','UB','SL','SU']
    WHEN 'CC' THEN ARRAY['WS','MS','AS','AS','WS']
    WHEN 'EC' THEN ARRAY['WS','AS','AS','WS']
    WHEN '2S' THEN ARRAY['WS','MS','AS','AS','MS','WS']
    ELSE ARRAY['LB','MB','UB','LB','MB','UB','SL','SU'] END)[((berth - 1) % (CASE cls
    WHEN '1A' THEN 4 WHEN '2A' THEN 6 WHEN 'CC' THEN 5 WHEN 'EC' THEN 4 WHEN '2S' THEN 6 ELSE 8 END)) + 1]
$$;

-- The live feed: records planned to sync up to hwm are released; a lease keeps one server process releasing.
CREATE TABLE hht_feed_state (
  id int PRIMARY KEY CHECK (id = 1),
  hwm timestamptz NOT NULL,
  lease_owner text,
  lease_until timestamptz
);
