-- Which date ranges TTE-wise EFT Summary keeps first rows for is history (ranges open as dates arrive, retention lets
-- them go), not a function of the raw rows; what holds is their shape: at most 32 dates, at most
-- hht_eft_rank_depth() rows kept, and a range with no bound keeps every TTE of its dates (rollup_eft_rank's
-- reference checks the rows). A range breaking these is missing from this reference.
SELECT g.*
  FROM rollup_eft_rank_range g
 WHERE g.hi - g.lo BETWEEN 0 AND 31
   AND (SELECT count(*) FROM rollup_eft_rank k WHERE k.lo = g.lo AND k.hi = g.hi) <= hht_eft_rank_depth()
   AND (g.bound_amount IS NULL) = (g.bound_tte IS NULL)
