-- Opens the 32 ranges that end at date d: [lo, d] starts as [lo, d - 1] (same bound, same rows) and takes the TTEs of
-- date d; [d, d] starts empty and whole. With no range ending at d - 1 at all (the first date, or one after a date
-- without EFTs) [lo, d] starts empty and whole and takes every TTE of its dates. A [lo, d - 1] missing while others end
-- at d - 1 was let go by retention (its dates are gone): [lo, d] is not kept either.
CREATE OR REPLACE FUNCTION hht_eft_rank_open(d date) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  restart boolean := NOT EXISTS (SELECT 1 FROM rollup_eft_rank_range WHERE hi = d - 1);
BEGIN
  INSERT INTO rollup_eft_rank_range (lo, hi, bound_amount, bound_tte, bound_lobby, bound_div, bound_zone)
  SELECT d - i, d, p.bound_amount, p.bound_tte, p.bound_lobby, p.bound_div, p.bound_zone
    FROM generate_series(0, 31) AS i
    LEFT JOIN rollup_eft_rank_range p ON p.lo = d - i AND p.hi = d - 1
   WHERE i = 0 OR p.lo IS NOT NULL OR restart;
  INSERT INTO rollup_eft_rank (lo, hi, tte_id, lobby_code, div_code, zone_code, eft_count, trains_worked, amount, cash, digital, digital_pct)
  SELECT k.lo, d, k.tte_id, k.lobby_code, k.div_code, k.zone_code, k.eft_count, k.trains_worked, k.amount, k.cash, k.digital, k.digital_pct
    FROM rollup_eft_rank k
   WHERE k.hi = d - 1 AND k.lo >= d - 31;
  PERFORM hht_eft_rank_merge(ARRAY(
    SELECT DISTINCT (g.lo, d, r.div_code, r.tte_id)::hht_eft_rank_key
      FROM rollup_eft_rank_range g
      JOIN rollup_efts r ON r.issue_date BETWEEN CASE WHEN restart THEN g.lo ELSE d END AND d
     WHERE g.hi = d));
END
$$;
