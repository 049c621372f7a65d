-- Rail Madad complaints registered (IST date) in the range on train runs started from 3 days before it
-- (train_runs start_date index). SLA met: resolved within sla_hours of registration; an open complaint past its
-- SLA has missed it; an open one within it is pending.
SELECT c.ref_no,
       tr.train_no,
       tr.start_date,
       c.category,
       c.sub_category,
       c.coach_id AS coach,
       c.berth_no,
       c.registered_at,
       c.resolved_at,
       round(extract(epoch FROM c.resolved_at - c.registered_at) / 3600, 1) AS resolution_hours,
       c.sla_hours,
       CASE
         WHEN c.resolved_at IS NOT NULL AND c.resolved_at <= c.registered_at + make_interval(hours => c.sla_hours) THEN 'YES'
         WHEN c.resolved_at IS NOT NULL OR now() > c.registered_at + make_interval(hours => c.sla_hours) THEN 'NO'
         ELSE 'PENDING'
       END AS sla_met,
       c.status,
       tr.div_code
  FROM train_runs tr
  JOIN complaints c ON c.run_id = tr.run_id
 WHERE tr.start_date BETWEEN :start_date::date - 3 AND :end_date::date
   AND c.registered_at >= :start_date::date::timestamp AT TIME ZONE 'Asia/Kolkata'
   AND c.registered_at < (:end_date::date + 1)::timestamp AT TIME ZONE 'Asia/Kolkata'
   AND (:zone::text IS NULL OR tr.zone_code = :zone)
   AND (:division::text IS NULL OR tr.div_code = :division)
   AND (:trainNo::text IS NULL OR tr.train_no = :trainNo)
   AND (:status::text IS NULL OR c.status = :status)
   AND {{scope}}
 ORDER BY c.registered_at, c.ref_no
