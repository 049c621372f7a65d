-- The audit trail (migrations 031, 040) through its view for the report role, newest first, read by date range (IST)
-- on the BRIN (at) index, or by user on the (user_id) index. Details keep each kind of entry's own figures.
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
 WHERE a.at >= (:start_date::date)::timestamp AT TIME ZONE 'Asia/Kolkata'
   AND a.at < (:end_date::date + 1)::timestamp AT TIME ZONE 'Asia/Kolkata'
   AND (:userId::text IS NULL OR a.user_id = upper(:userId))
   AND (:action::text IS NULL OR a.action = :action)
   AND (:report::text IS NULL OR a.report = :report)
   AND {{scope}}
 ORDER BY a.at DESC, a.seq DESC
