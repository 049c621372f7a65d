-- Sign-ons (beats) of TTEs on one IST date with sign on/off times and their digital collections: every payment for
-- an EFT of the beat, whatever its date (an overnight beat's payments after midnight count with it), which is what
-- the count's link lists. Runs from the day before (overnight beats) via the train_runs start_date index; the
-- payments through the beat's EFTs (efts_run, digital_payments_eft).
SELECT b.sign_on_id,
       b.trip_id,
       b.tte_id,
       t.name AS tte_name,
       b.lobby_code,
       b.div_code,
       tr.train_no,
       tr.start_date,
       b.from_station AS beat_from,
       b.to_station AS beat_to,
       b.device_id,
       b.sign_on_at,
       b.sign_off_at,
       COALESCE(pay.txn_count, 0) AS txn_count,
       COALESCE(pay.amount, 0) AS digital_amount,
       :srcDate::date AS src_date
  FROM train_runs tr
  JOIN beats b ON b.run_id = tr.run_id
  JOIN ttes t ON t.tte_id = b.tte_id
  -- Per listed beat, its EFTs by run (efts_run, a few per run) and their payments: the same rows as grouping the two
  -- dates' payments nationally, without that pass, which a generic plan of the prepared statement (its sixth run in a
  -- session) did for a division's few hundred beats (2 s instead of 30 ms, a national day).
  LEFT JOIN LATERAL (
        SELECT count(*)::int AS txn_count, sum(dp.amount) FILTER (WHERE dp.status = 'SUCCESS') AS amount
          FROM efts e
          JOIN digital_payments dp ON dp.eft_no = e.eft_no
         WHERE e.run_id = b.run_id AND e.beat_id = b.beat_id
       ) pay ON TRUE
 WHERE tr.start_date BETWEEN :srcDate::date - 1 AND :srcDate::date
   AND b.sign_on_at >= :srcDate::date::timestamp AT TIME ZONE 'Asia/Kolkata'
   AND b.sign_on_at < (:srcDate::date + 1)::timestamp AT TIME ZONE 'Asia/Kolkata'
   AND (:zone::text IS NULL OR b.zone_code = :zone)
   AND (:division::text IS NULL OR b.div_code = :division)
   AND (:lobby::text IS NULL OR b.lobby_code = :lobby)
   AND (:tteId::text IS NULL OR b.tte_id = :tteId)
   AND (:signOnId::text IS NULL OR b.sign_on_id = :signOnId)
   AND {{scope}}
 ORDER BY b.sign_on_at, b.sign_on_id
