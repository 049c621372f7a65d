-- TTE Manning's rows per duty date and lobby: its TTEs with a beat of a run that started on the duty date or up to
-- three days before.
SELECT d.duty_date, d.zone_code, d.div_code, d.lobby_code, count(DISTINCT d.tte_id)
  FROM (SELECT COALESCE(ist_date(b.sign_on_at), tr.start_date) AS duty_date, tr.start_date, b.zone_code, b.div_code, b.lobby_code, b.tte_id
          FROM beats b JOIN train_runs tr ON tr.run_id = b.run_id) d
 WHERE d.start_date BETWEEN d.duty_date - 3 AND d.duty_date
 GROUP BY d.duty_date, d.zone_code, d.div_code, d.lobby_code
