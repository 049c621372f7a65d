-- Sign-in hardening: lockout per account and address, captcha lock, OTP bound to the password step.

-- Lockout per account AND client address: wrong passwords from one address never lock the account for another.
DROP TABLE auth_lockouts;
CREATE TABLE auth_lockouts (
  user_id text NOT NULL,
  ip text NOT NULL,
  locked_until timestamptz NOT NULL,
  PRIMARY KEY (user_id, ip)
);
UPDATE auth_login_failures SET ip = '' WHERE ip IS NULL;
ALTER TABLE auth_login_failures ALTER COLUMN ip SET NOT NULL;
CREATE INDEX auth_login_failures_user_ip ON auth_login_failures (user_id, ip, failed_at);

-- A login grant belongs to the client that passed the password step: its id (stored hashed) travels in an
-- HttpOnly cookie, and the OTP calls must present it. A user may hold several (two browsers).
DROP TABLE auth_login_grants;
CREATE TABLE auth_login_grants (
  grant_hash text PRIMARY KEY,
  user_id text NOT NULL,
  granted_at timestamptz NOT NULL,
  ip text NOT NULL
);
CREATE INDEX auth_login_grants_user ON auth_login_grants (user_id);

-- The OTP is issued to one grant; only that grant may try it, and every wrong try is counted (attempts).
DELETE FROM auth_otps;
ALTER TABLE auth_otps ADD COLUMN grant_hash text NOT NULL;

-- Wrong captcha answers per client address: the 5th within 15 minutes locks that address for 30 s (spec section 4).
CREATE TABLE auth_captcha_failures (
  ip text PRIMARY KEY,
  failures int NOT NULL,
  last_failed_at timestamptz NOT NULL,
  locked_until timestamptz
);

-- Server-generated secrets shared by every instance on one PostgreSQL (the signing key when HHT_JWT_SECRET is unset).
CREATE TABLE server_secrets (
  name text PRIMARY KEY,
  value text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
