-- Sign-in and session state. Everything lives here (never only in process memory), so several instances on
-- one PostgreSQL behave as one. Secrets are stored hashed: captcha answers and OTPs as HMAC-SHA256 under the
-- server secret, refresh tokens as SHA-256.

-- Picture captchas: single use (used_at), 2 minutes (expires_at).
CREATE TABLE auth_captchas (
  captcha_id text PRIMARY KEY,
  answer_hash text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX auth_captchas_expires ON auth_captchas (expires_at);

-- Wrong passwords per account (the lockout counts those of the last 15 minutes).
CREATE TABLE auth_login_failures (
  id bigserial PRIMARY KEY,
  user_id text NOT NULL,
  failed_at timestamptz NOT NULL,
  ip text
);
CREATE INDEX auth_login_failures_user ON auth_login_failures (user_id, failed_at);

CREATE TABLE auth_lockouts (
  user_id text PRIMARY KEY,
  locked_until timestamptz NOT NULL
);

-- A successful password check opens the OTP step for 5 minutes.
CREATE TABLE auth_login_grants (
  user_id text PRIMARY KEY,
  granted_at timestamptz NOT NULL,
  ip text
);

-- One live OTP per user: hashed, 5 minutes, at most 5 wrong tries; resend throttled from last_sent_at.
CREATE TABLE auth_otps (
  user_id text PRIMARY KEY,
  otp_hash text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  attempts int NOT NULL DEFAULT 0,
  last_sent_at timestamptz NOT NULL,
  resend_count int NOT NULL DEFAULT 0
);

-- Sessions: one live session per user; a new login revokes the previous one ('superseded').
CREATE TABLE auth_sessions (
  session_id text PRIMARY KEY,
  user_id text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  revoke_reason text CHECK (revoke_reason IN ('superseded', 'logout', 'refresh_reuse'))
);
CREATE INDEX auth_sessions_user ON auth_sessions (user_id) WHERE revoked_at IS NULL;

-- Refresh tokens, rotated on every use; presenting a used one again revokes the whole session.
CREATE TABLE auth_refresh_tokens (
  token_hash text PRIMARY KEY,
  session_id text NOT NULL REFERENCES auth_sessions ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX auth_refresh_tokens_session ON auth_refresh_tokens (session_id);

-- Per-IP request counters in fixed one-minute windows (captcha, login, otp buckets).
CREATE TABLE auth_rate_counters (
  bucket text NOT NULL,
  ip text NOT NULL,
  window_start timestamptz NOT NULL,
  hits int NOT NULL,
  PRIMARY KEY (bucket, ip, window_start)
);

-- Plain captcha answers and OTPs for automated tests only: written only when HHT_TEST_HOOKS=1
-- (which the server refuses in production). kind = 'captcha' (key captcha_id) or 'otp' (key user_id).
CREATE TABLE auth_test_hook_values (
  kind text NOT NULL CHECK (kind IN ('captcha', 'otp')),
  key text NOT NULL,
  value text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (kind, key)
);
