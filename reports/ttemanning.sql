-- TteManningReport: TTEs who signed on for a beat on the date (IST; beats without sign-on count on the run's
-- start date), with trains worked, coaches manned with an HHT and the HHTs used. Runs that started up to 3 days
-- earlier are considered so that later beats of long journeys are included.
-- Reads the TTE duty rollup (migration 020: a row per run, duty date, lobby and TTE with its beats, coaches manned,
-- HHTs and sign-on times), so the day's rows come from an index instead of four run dates of beats. Coaches manned
-- are the TTE's over every lobby shown, as they were counted from the beats.
SELECT b.lobby_code AS lobby,
       b.tte_id,
       te.name AS tte_name,
       te.designation,
       mask_mobile(te.mobile_no) AS mobile,
       count(DISTINCT b.run_id)::int AS trains_worked,
       string_agg(DISTINCT b.train_no, ', ') AS trains,
       sum(b.beats)::int AS beats,
       (sum(sum(b.coaches_manned)) OVER (PARTITION BY b.tte_id))::int AS coaches_manned,
       (SELECT string_agg(DISTINCT d, ', ') FROM unnest(hht_array_cat(b.device_ids)) AS d) AS hht_ids,
       min(b.first_sign_on) AS first_sign_on,
       max(b.last_sign_off) AS last_sign_off,
       :srcDate::date - 3 AS from_date,
       :srcDate::date AS to_date
  FROM rollup_tte_duty b
  JOIN ttes te ON te.tte_id = b.tte_id
 WHERE b.duty_date = :srcDate::date
   AND b.start_date BETWEEN :srcDate::date - 3 AND :srcDate::date
   AND (:zone::text IS NULL OR b.zone_code = :zone)
   AND (:division::text IS NULL OR b.div_code = :division)
   AND (:lobby::text IS NULL OR b.lobby_code = :lobby)
   AND {{scope}}
 GROUP BY b.lobby_code, b.tte_id, te.name, te.designation, te.mobile_no
 ORDER BY b.lobby_code, b.tte_id
