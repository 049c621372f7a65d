-- Issue 13, national scale, fifth pass: the first pages of TTE-wise EFT Summary without grouping the range.
--
-- TTE-wise EFT Summary lists every TTE with EFTs in a date range, highest amount first. Its first page needs each
-- TTE's sum over the chosen range, so it grouped the range's rollup_efts rows (54,745 for 8 national days, 21-27x the
-- large seed's time). A range is at most 32 dates (the report's dateRange rule), so the ranges that can be asked for
-- are few: 32 end at each date. For each of them rollup_eft_rank keeps the range's first rows in the report's order
-- (amount DESC, TTE, lobby, division, zone), at most hht_eft_rank_depth() of them, and rollup_eft_rank_range the first
-- row it let go (the bound). Invariant: the kept rows of a range are exactly the range's rows that come before its
-- bound (every row when the bound is NULL). The report reads the kept rows in order and groups the range only for the
-- rows from the bound on, which a first page does not reach.
--
-- Upkeep (hht_fill_eft_rank, from hht_fill_efts: sync path, seed, retention): every TTE whose rollup rows a run
-- refresh changed is recomputed over each kept range holding a changed date, and kept if it comes before the bound;
-- a range past its depth lets its last rows go and takes the first of them as its bound. This holds the invariant
-- whatever changed (a TTE's sum up or down, a row gone). Live EFTs arrive for today: 32 ranges end at today, and
-- opening the ranges of a new date copies those of the day before (new rows come from the new date alone).
CREATE TABLE rollup_eft_rank_range (
  lo date NOT NULL,
  hi date NOT NULL,
  -- The first row of the range not kept, in the report's order; all NULL: every row of the range is kept.
  bound_amount numeric,
  bound_tte text,
  bound_lobby text,
  bound_div text,
  bound_zone text,
  PRIMARY KEY (lo, hi)
);
CREATE INDEX rollup_eft_rank_range_hi ON rollup_eft_rank_range (hi);

CREATE TABLE rollup_eft_rank (
  lo date NOT NULL,
  hi date NOT NULL,
  tte_id text NOT NULL,
  lobby_code text NOT NULL,
  div_code text NOT NULL,
  zone_code text NOT NULL,
  eft_count int NOT NULL,
  trains_worked int NOT NULL,
  amount numeric NOT NULL,
  cash numeric NOT NULL,
  digital numeric NOT NULL,
  digital_pct numeric NOT NULL
);
-- The report's order within a range: a page is an index range read in order.
CREATE INDEX rollup_eft_rank_order ON rollup_eft_rank (lo, hi, amount DESC, tte_id, lobby_code, div_code, zone_code);
-- A row of a range per TTE and lobby; the upkeep finds a TTE's rows by it.
CREATE UNIQUE INDEX rollup_eft_rank_tte ON rollup_eft_rank (lo, hi, div_code, tte_id, lobby_code, zone_code);

-- A (range, division, TTE) whose row(s) are to be recomputed; a changed (IST issue date, division, TTE).
CREATE TYPE hht_eft_rank_key AS (lo date, hi date, div_code text, tte_id text);
CREATE TYPE hht_day_division_tte AS (event_date date, div_code text, tte_id text);

GRANT SELECT ON rollup_eft_rank, rollup_eft_rank_range TO hht_report;
