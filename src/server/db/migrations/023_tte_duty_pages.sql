-- Issue 13, national scale: TTE Manning a page at a time.
--
-- TTE Manning lists every TTE on duty on a date (7,625 India-wide for a national day, 135 on the large seed), so a
-- whole answer grows with the country. The report is now paged by the server in its order (lobby, TTE): an index
-- in that order lets a page read its TTEs' rows and stop, and the page's count comes from a row per date and
-- lobby instead of counting the day's TTEs.
-- It serves every read by date, so the index by date alone goes.
DROP INDEX rollup_tte_duty_date;
CREATE INDEX rollup_tte_duty_order ON rollup_tte_duty (duty_date, lobby_code, tte_id);
-- A TTE's rows of a date: the report's per-row look-up of the coaches manned over the lobbies shown.
CREATE INDEX rollup_tte_duty_tte ON rollup_tte_duty (tte_id, duty_date);

-- The report's rows per duty date and lobby: its TTEs with a beat of a run that started on the date or up to three
-- days before (the report's run window). The sum over a user's lobbies is the number of rows the report lists.
CREATE TABLE rollup_tte_duty_lobby (
  duty_date date NOT NULL,
  zone_code text NOT NULL,
  div_code text NOT NULL,
  lobby_code text NOT NULL,
  ttes int NOT NULL
);
CREATE INDEX rollup_tte_duty_lobby_date ON rollup_tte_duty_lobby (duty_date, lobby_code);

CREATE TYPE hht_day_lobby AS (duty_date date, lobby_code text);

GRANT SELECT ON rollup_tte_duty_lobby TO hht_report;
