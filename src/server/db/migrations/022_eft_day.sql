-- Issue 13, national scale, fourth pass: EFT Summary without a row per run.
--
-- EFT Summary summed rollup_efts (a row per IST issue date, run and TTE: 54,745 rows for 8 national days) and
-- counted distinct TTEs per division over the range, so its time grew with the day's trains (19.7x the large seed's).
-- rollup_eft_day has a row per (issue date, division) and per (issue date, division, lobby), the shape of
-- rollup_sync_day: about a hundred rows a day whatever the number of trains. Besides the sums it keeps, for the TTE
-- count, `ttes_since`: element i (1 to 32) is the number of the row's TTEs with EFTs on the date whose previous EFT
-- date in the same division (lobby, for a lobby row) is at least i days earlier, or absent within 31 days. A TTE is
-- in a range [s, e] once, on its first EFT date d there, which is the date whose previous EFT date is before s, that
-- is at least d - s + 1 days earlier; so the range's TTEs are sum(ttes_since[d - s + 1]) over its rows. Exact for
-- ranges of up to 32 dates (the report's dateRange rule allows 31).
CREATE TABLE rollup_eft_day (
  issue_date date NOT NULL,
  zone_code text NOT NULL,
  div_code text NOT NULL,
  lobby_code text,
  efts int NOT NULL,
  digital_efts int NOT NULL,
  total numeric NOT NULL,
  cash numeric NOT NULL,
  digital numeric NOT NULL,
  card numeric NOT NULL,
  upi numeric NOT NULL,
  ttes_since int[] NOT NULL
);
CREATE INDEX rollup_eft_day_date ON rollup_eft_day (issue_date, div_code);
-- A TTE's previous EFT date in a division, looked up for each TTE of the dates being redone.
CREATE INDEX rollup_efts_tte ON rollup_efts (div_code, tte_id, issue_date);

GRANT SELECT ON rollup_eft_day TO hht_report;
