-- key: run_id
-- EFTs per IST issue date, run and TTE, the payment modes as columns (digital, card, UPI: received, an EFT with a
-- SUCCESS payment); the (run, TTE) pair's previous issue date.
SELECT d.*, lag(d.issue_date) OVER (PARTITION BY d.run_id, d.zone_code, d.div_code, d.lobby_code, d.tte_id ORDER BY d.issue_date)
  FROM (SELECT ist_date(e.issued_at) AS issue_date, e.run_id, e.zone_code, e.div_code, e.lobby_code, e.tte_id,
               count(*), count(*) FILTER (WHERE e.payment_mode <> 'CASH'), sum(e.total),
               COALESCE(sum(e.total) FILTER (WHERE e.payment_mode = 'CASH'), 0),
               COALESCE(sum(e.total) FILTER (WHERE e.paid), 0),
               COALESCE(sum(e.total) FILTER (WHERE e.payment_mode = 'CARD' AND e.paid), 0),
               COALESCE(sum(e.total) FILTER (WHERE e.payment_mode = 'UPI' AND e.paid), 0)
          FROM (SELECT efts.*, payment_mode <> 'CASH' AND EXISTS (SELECT 1 FROM digital_payments dp WHERE dp.eft_no = efts.eft_no AND dp.status = 'SUCCESS') AS paid FROM efts) e
         WHERE e.run_id >= $1 AND e.run_id < $2
         GROUP BY 1, e.run_id, e.zone_code, e.div_code, e.lobby_code, e.tte_id) d
