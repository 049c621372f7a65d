-- Saved report views: a named filter, sort, column layout and grid/card choice of one report, kept by its owner,
-- private or shared with everyone who may open the report. A view holds no rows and no scope: the report endpoint
-- applies the opener's own scope every time, so sharing never widens anyone's data.
CREATE TABLE saved_views (
  view_id text PRIMARY KEY CHECK (view_id ~ '^[A-Za-z0-9_-]{16}$'), -- random, so a link names one view only
  owner_id text NOT NULL REFERENCES users ON DELETE CASCADE,
  report_id text NOT NULL,
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 80),
  shared boolean NOT NULL DEFAULT false,
  state jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX saved_views_owner ON saved_views (owner_id, updated_at DESC);
CREATE INDEX saved_views_shared ON saved_views (report_id) WHERE shared;

-- What the freshness of a report answer reads: the latest sync among the runs (and scope) it covers.
CREATE INDEX rollup_sync_start_date ON rollup_sync (start_date, last_sync_at);
CREATE INDEX efts_synced ON efts (synced_at);
