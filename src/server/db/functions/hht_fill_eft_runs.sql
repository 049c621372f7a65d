-- rollup_efts: EFTs per IST issue date, run and TTE with the payment modes as columns, for the runs lo <= run_id < hi.
-- pair_prev_date is the previous issue date of the row's (run, TTE) pair (NULL on its first): TTE-wise EFT Summary
-- counts a pair in a date range once, on the row whose previous date is before the range or absent.
-- Money collected is cash and SUCCESS payments: digital, card and upi are the totals of card/UPI EFTs with a SUCCESS
-- payment; a card/UPI EFT without one is unpaid (total - cash - digital), never collected. digital_efts counts every
-- card/UPI EFT (the share of EFTs issued for card/UPI, paid or not).
CREATE OR REPLACE FUNCTION hht_fill_eft_runs(lo bigint, hi bigint) RETURNS void LANGUAGE sql AS $$
  DELETE FROM rollup_efts WHERE run_id >= lo AND run_id < hi;
  INSERT INTO rollup_efts (issue_date, run_id, zone_code, div_code, lobby_code, tte_id, efts, digital_efts, total, cash,
                           digital, card, upi, pair_prev_date)
  SELECT d.*, lag(d.issue_date) OVER (PARTITION BY d.run_id, d.zone_code, d.div_code, d.lobby_code, d.tte_id ORDER BY d.issue_date)
    FROM (SELECT ist_date(e.issued_at) AS issue_date, e.run_id, e.zone_code, e.div_code, e.lobby_code, e.tte_id,
                 count(*), count(*) FILTER (WHERE e.payment_mode <> 'CASH'), sum(e.total),
                 COALESCE(sum(e.total) FILTER (WHERE e.payment_mode = 'CASH'), 0),
                 COALESCE(sum(e.total) FILTER (WHERE e.payment_mode <> 'CASH' AND e.paid), 0),
                 COALESCE(sum(e.total) FILTER (WHERE e.payment_mode = 'CARD' AND e.paid), 0),
                 COALESCE(sum(e.total) FILTER (WHERE e.payment_mode = 'UPI' AND e.paid), 0)
            FROM (SELECT e.*, e.payment_mode <> 'CASH'
                              AND EXISTS (SELECT 1 FROM digital_payments dp WHERE dp.eft_no = e.eft_no AND dp.status = 'SUCCESS') AS paid
                    FROM efts e
                   WHERE e.run_id >= lo AND e.run_id < hi) e
           GROUP BY ist_date(e.issued_at), e.run_id, e.zone_code, e.div_code, e.lobby_code, e.tte_id) d;
$$;
