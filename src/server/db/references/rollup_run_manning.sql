-- key: run_id
-- Per run: reserved coaches, coaches covered by a beat with an HHT, HHTs, manned at all, the lobby of beat 1.
SELECT tr.run_id, tr.start_date, tr.train_no, tr.zone_code, tr.div_code,
       (SELECT count(*) FROM run_coaches rc WHERE rc.run_id = tr.run_id),
       (SELECT count(DISTINCT rc.coach_id) FROM run_coaches rc
          JOIN beats b ON b.run_id = rc.run_id AND b.device_id IS NOT NULL AND rc.coach_id = ANY (b.coaches)
         WHERE rc.run_id = tr.run_id),
       (SELECT count(DISTINCT b.device_id) FROM beats b WHERE b.run_id = tr.run_id),
       EXISTS (SELECT 1 FROM beats b WHERE b.run_id = tr.run_id AND b.device_id IS NOT NULL),
       (SELECT b.lobby_code FROM beats b WHERE b.run_id = tr.run_id ORDER BY b.beat_no LIMIT 1)
  FROM train_runs tr
 WHERE tr.run_id >= $1 AND tr.run_id < $2
