-- The audit trail (migration 041) through its view for the report role, newest first. Entries are stored in batches
-- of one month each: the batch conditions let the date range skip other months' partitions and the batches outside
-- it (BRIN on first and last time), and a user skip batches without their entries (GIN on the batch's users), before
-- any batch is unnested. Details keep each kind of entry's own figures.
SELECT a.at,
       a.action,
       a.user_id,
       a.user_level,
       a.report,
       (a.details->>'rows')::bigint AS rows,
       (a.details->>'ms')::int AS ms,
       a.details->>'format' AS format,
       (a.details->>'bytes')::bigint AS bytes,
       (a.details->'filters')::text AS filters,
       coalesce(a.details->>'file', a.details->>'deviceId', a.details->>'route') AS subject,
       a.details->>'reason' AS reason,
       a.ip,
       a.seq
  FROM audit_trail_entries a
 WHERE a.batch_first >= date_trunc('month', (:start_date::date)::timestamp AT TIME ZONE 'Asia/Kolkata' AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
   AND a.batch_first < (:end_date::date + 1)::timestamp AT TIME ZONE 'Asia/Kolkata'
   AND a.batch_last >= (:start_date::date)::timestamp AT TIME ZONE 'Asia/Kolkata'
   AND a.at >= (:start_date::date)::timestamp AT TIME ZONE 'Asia/Kolkata'
   AND a.at < (:end_date::date + 1)::timestamp AT TIME ZONE 'Asia/Kolkata'
   AND (:userId::text IS NULL OR (a.batch_users @> ARRAY[upper(:userId)] AND a.user_id = upper(:userId)))
   AND (:action::text IS NULL OR a.action = :action)
   AND (:report::text IS NULL OR a.report = :report)
   AND {{scope}}
 ORDER BY a.at DESC, a.seq DESC
