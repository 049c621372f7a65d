-- allotmentReport: every berth allotment (RAC/WL passenger given a berth on board) of the run(s).
-- The passenger (always there: the allotment's foreign key) is looked up by primary key in the allotment's own run
-- and the date's partition, in the select list: under the page's LIMIT PostgreSQL does it after the sort, for the
-- page's rows only. Joined, the planner expected a few rows and hashed the date's 2 M passengers.
SELECT tr.train_no,
       tr.start_date,
       r.pnr,
       mask_name((SELECT p.name FROM passengers p WHERE p.run_id = r.run_id AND p.psgn_id = r.psgn_id
           AND p.run_id >= (:startDate::date - DATE '2000-01-01')::bigint * 100000 AND p.run_id < (:startDate::date - DATE '2000-01-01' + 1)::bigint * 100000)) AS passenger,
       (SELECT p.class FROM passengers p WHERE p.run_id = r.run_id AND p.psgn_id = r.psgn_id
           AND p.run_id >= (:startDate::date - DATE '2000-01-01')::bigint * 100000 AND p.run_id < (:startDate::date - DATE '2000-01-01' + 1)::bigint * 100000) AS class,
       r.prev_status,
       (SELECT p.current_status FROM passengers p WHERE p.run_id = r.run_id AND p.psgn_id = r.psgn_id
           AND p.run_id >= (:startDate::date - DATE '2000-01-01')::bigint * 100000 AND p.run_id < (:startDate::date - DATE '2000-01-01' + 1)::bigint * 100000) AS current_status,
       r.coach_id AS coach,
       r.berth_no,
       r.from_station,
       r.to_station,
       r.allotted_at,
       r.tte_id,
       r.eft_no
  FROM reallocations r
  JOIN train_runs tr ON tr.run_id = r.run_id
 WHERE tr.start_date = :startDate::date
   AND r.run_id >= (:startDate::date - DATE '2000-01-01')::bigint * 100000
   AND r.run_id < (:startDate::date - DATE '2000-01-01' + 1)::bigint * 100000
   AND (:trainNo::text IS NULL OR tr.train_no = :trainNo)
   AND (:zone::text IS NULL OR r.zone_code = :zone)
   AND (:division::text IS NULL OR r.div_code = :division)
   AND {{scope}}
 ORDER BY tr.train_no, r.allotted_at, r.coach_id, r.berth_no
