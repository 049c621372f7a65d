-- key: run_id
-- EFTs per IST issue date, run and TTE, the payment modes as columns; the (run, TTE) pair's previous issue date.
SELECT d.*, lag(d.issue_date) OVER (PARTITION BY d.run_id, d.zone_code, d.div_code, d.lobby_code, d.tte_id ORDER BY d.issue_date)
  FROM (SELECT ist_date(e.issued_at) AS issue_date, e.run_id, e.zone_code, e.div_code, e.lobby_code, e.tte_id,
               count(*), count(*) FILTER (WHERE e.payment_mode <> 'CASH'), sum(e.total),
               COALESCE(sum(e.total) FILTER (WHERE e.payment_mode = 'CASH'), 0),
               COALESCE(sum(e.total) FILTER (WHERE e.payment_mode <> 'CASH'), 0),
               COALESCE(sum(e.total) FILTER (WHERE e.payment_mode = 'CARD'), 0),
               COALESCE(sum(e.total) FILTER (WHERE e.payment_mode = 'UPI'), 0)
          FROM efts e
         WHERE e.run_id >= $1 AND e.run_id < $2
         GROUP BY 1, e.run_id, e.zone_code, e.div_code, e.lobby_code, e.tte_id) d
