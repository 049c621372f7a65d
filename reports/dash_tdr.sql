-- Lobby users see TDRs of coaches their lobby's TTEs worked (the beat covering the coach). That lobby is a column
-- of the inner query that only the lobby scope reads, so other users' calls (and the dashboard card's count) never
-- look it up; the run is a left join on its key, so a count that reads none of its columns skips it too.
SELECT t.tdr_id,
       t.pnr,
       t.train_no,
       t.start_date,
       t.coach,
       t.class,
       t.reason,
       t.certificate_no,
       t.status,
       t.refund_amount,
       t.filed_at
  FROM (SELECT t.tdr_id, t.pnr, tr.train_no, tr.start_date, t.coach_id AS coach, t.class, t.reason, t.certificate_no, t.status,
               t.refund_amount, t.filed_at, tr.zone_code, tr.div_code,
               (SELECT b.lobby_code FROM beats b
                 WHERE b.run_id = t.run_id AND t.coach_id = ANY (b.coaches)
                 ORDER BY b.beat_no LIMIT 1) AS lobby_code
          FROM tdrs t
          LEFT JOIN train_runs tr ON tr.run_id = t.run_id
         WHERE t.filed_at >= (:start_date::date)::timestamp AT TIME ZONE 'Asia/Kolkata'
           AND t.filed_at < (:end_date::date + 1)::timestamp AT TIME ZONE 'Asia/Kolkata') t
 WHERE {{scope}}
 ORDER BY t.filed_at DESC, t.tdr_id
