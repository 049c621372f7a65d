-- Device management: the latest remark on the device, and an audit trail of every change (who, when, before, after).
ALTER TABLE devices ADD COLUMN IF NOT EXISTS remarks text;

CREATE TABLE device_audit (
  audit_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  device_id text NOT NULL REFERENCES devices,
  changed_at timestamptz NOT NULL,
  changed_by text NOT NULL,
  changed_by_level text NOT NULL,
  before jsonb NOT NULL,                -- {status, assignedTteId, remarks, version}
  after jsonb NOT NULL
);
CREATE INDEX device_audit_device ON device_audit (device_id, changed_at DESC);
