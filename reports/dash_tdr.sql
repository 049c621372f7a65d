-- Lobby users see TDRs of coaches their lobby's TTEs worked (the beat covering the coach).
SELECT t.tdr_id,
       t.pnr,
       tr.train_no,
       tr.start_date,
       t.coach_id AS coach,
       t.class,
       t.reason,
       t.certificate_no,
       t.status,
       t.refund_amount,
       t.filed_at
  FROM tdrs t
  JOIN train_runs tr ON tr.run_id = t.run_id
  LEFT JOIN LATERAL (
        SELECT b.lobby_code FROM beats b
         WHERE b.run_id = t.run_id AND t.coach_id = ANY (b.coaches)
         ORDER BY b.beat_no LIMIT 1
       ) bl ON TRUE
 WHERE ist_date(t.filed_at) BETWEEN :start_date::date AND :end_date::date
   AND {{scope}}
 ORDER BY t.filed_at DESC, t.tdr_id
