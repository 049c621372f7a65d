-- The number of entries the Audit Trail lists, without unnesting what need not be: when no user, action or report
-- is chosen, a batch wholly inside the date range counts by its n; only the batches across the range's ends (or,
-- with a filter, every batch the range and user conditions keep) are unnested and their entries counted.
SELECT ((SELECT coalesce(sum(b.n), 0)
           FROM audit_trail_batches b
          WHERE :userId::text IS NULL AND :action::text IS NULL AND :report::text IS NULL
            AND b.at_first >= (:start_date::date)::timestamp AT TIME ZONE 'Asia/Kolkata'
            AND b.at_last < (:end_date::date + 1)::timestamp AT TIME ZONE 'Asia/Kolkata')
      + (SELECT count(*)
           FROM audit_trail_entries a
          WHERE a.batch_first >= date_trunc('month', (:start_date::date)::timestamp AT TIME ZONE 'Asia/Kolkata' AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
            AND a.batch_first < (:end_date::date + 1)::timestamp AT TIME ZONE 'Asia/Kolkata'
            AND a.batch_last >= (:start_date::date)::timestamp AT TIME ZONE 'Asia/Kolkata'
            AND NOT (:userId::text IS NULL AND :action::text IS NULL AND :report::text IS NULL
                     AND a.batch_first >= (:start_date::date)::timestamp AT TIME ZONE 'Asia/Kolkata'
                     AND a.batch_last < (:end_date::date + 1)::timestamp AT TIME ZONE 'Asia/Kolkata')
            AND a.at >= (:start_date::date)::timestamp AT TIME ZONE 'Asia/Kolkata'
            AND a.at < (:end_date::date + 1)::timestamp AT TIME ZONE 'Asia/Kolkata'
            AND (:userId::text IS NULL OR (a.batch_users @> ARRAY[upper(:userId)] AND a.user_id = upper(:userId)))
            AND (:action::text IS NULL OR a.action = :action)
            AND (:report::text IS NULL OR a.report = :report)
            AND {{scope}}))::int AS total
