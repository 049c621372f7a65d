-- E-mail subscriptions: a report (or the dashboard) mailed daily or weekly at an IST time, each send recorded.

-- The officer's e-mail address, set in the profile; a subscription is mailed to it at send time.
ALTER TABLE users ADD COLUMN email text;

CREATE TABLE mail_subscriptions (
  id bigserial PRIMARY KEY,
  user_id text NOT NULL REFERENCES users ON DELETE CASCADE,
  -- 'report' (report_id, its tab, filters, columns and order) or 'dashboard' (a PDF of its cards)
  target text NOT NULL CHECK (target IN ('report', 'dashboard')),
  report_id text,
  tab text,
  -- Filter values as the report page had them; a date may be relative ('$today', '$today-1'), resolved at send time.
  filters jsonb NOT NULL DEFAULT '{}',
  columns text[],
  sort_by text,
  sort_dir text CHECK (sort_dir IN ('asc', 'desc')),
  format text NOT NULL CHECK (format IN ('csv', 'xlsx', 'pdf')),
  lang text NOT NULL CHECK (lang IN ('en', 'hi')),
  frequency text NOT NULL CHECK (frequency IN ('daily', 'weekly')),
  -- ISO weekday (1 = Monday .. 7 = Sunday), weekly only
  weekday smallint CHECK (weekday BETWEEN 1 AND 7),
  -- Wall-clock time in India, 'HH:MM'
  send_time text NOT NULL CHECK (send_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  paused boolean NOT NULL DEFAULT false,
  -- The next time a send falls due (UTC instant of the IST time above)
  next_due_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CHECK ((target = 'report') = (report_id IS NOT NULL)),
  CHECK ((frequency = 'weekly') = (weekday IS NOT NULL))
);
CREATE INDEX mail_subscriptions_user ON mail_subscriptions (user_id);
CREATE INDEX mail_subscriptions_due ON mail_subscriptions (next_due_at) WHERE NOT paused;

-- One row per subscription and due time: the unique key is what keeps two senders from mailing a due time twice.
CREATE TABLE mail_sends (
  id bigserial PRIMARY KEY,
  subscription_id bigint NOT NULL REFERENCES mail_subscriptions ON DELETE CASCADE,
  due_at timestamptz NOT NULL,
  -- pending -> sending -> sent | retrying (-> sending ...) | failed; skipped when the user may no longer have it
  status text NOT NULL CHECK (status IN ('pending', 'sending', 'retrying', 'sent', 'failed', 'skipped')),
  attempts int NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  claimed_by text,
  -- Filters as resolved for this send (relative dates made dates), shown in the history and used by the link.
  resolved_filters jsonb,
  rows int,
  bytes int,
  -- The file was over HHT_MAIL_MAX_MB: the mail carried a link instead of the attachment.
  linked boolean NOT NULL DEFAULT false,
  reason text,
  finished_at timestamptz,
  UNIQUE (subscription_id, due_at)
);
CREATE INDEX mail_sends_open ON mail_sends (next_attempt_at) WHERE status IN ('pending', 'retrying');

-- Which server process sends (a lease renewed while it runs, as the live feed's).
CREATE TABLE mail_sender_state (
  id int PRIMARY KEY CHECK (id = 1),
  lease_owner text,
  lease_until timestamptz
);
INSERT INTO mail_sender_state (id) VALUES (1);
