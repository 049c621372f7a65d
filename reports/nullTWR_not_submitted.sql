-- nullTwrReport: beats of the runs of the date whose Train Working Report is missing (NOT_SUBMITTED) or EMPTY.
SELECT tr.train_no,
       t.name AS train_name,
       tr.start_date,
       b.div_code AS division,
       b.lobby_code AS lobby,
       b.beat_no,
       b.from_station,
       b.to_station,
       b.tte_id,
       te.name AS tte_name,
       b.device_id AS hht_id,
       b.sign_off_at,
       b.twr_status,
       b.twr_submitted_at
  FROM beats b
  JOIN train_runs tr ON tr.run_id = b.run_id
  JOIN trains t ON t.train_no = tr.train_no
  JOIN ttes te ON te.tte_id = b.tte_id
 WHERE tr.start_date = :startDate::date
   AND b.twr_status IN ('NOT_SUBMITTED', 'EMPTY')
   AND (:zone::text IS NULL OR b.zone_code = :zone)
   AND (:division::text IS NULL OR b.div_code = :division)
   AND {{scope}}
 ORDER BY b.div_code, tr.train_no, b.beat_no
