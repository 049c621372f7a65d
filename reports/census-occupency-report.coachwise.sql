-- Coach-wise passenger counts of one train run: by status, gender and age group, and the TTE's marks.
SELECT rc.seq,
       rc.coach_id AS coach,
       rc.class,
       rc.capacity,
       ps.total,
       ps.cnf,
       ps.rac,
       ps.wl,
       ps.male,
       ps.female,
       ps.transgender,
       ps.children,
       ps.seniors,
       ps.turned_up,
       ps.nt,
       ps.not_marked,
       tr.train_no,
       tr.start_date
  FROM train_runs tr
  JOIN run_coaches rc ON rc.run_id = tr.run_id
  CROSS JOIN LATERAL (
        SELECT count(*)::int AS total,
               count(*) FILTER (WHERE p.current_status LIKE 'CNF%')::int AS cnf, -- CNF, or CNF/coach/berth once allotted on board
               count(*) FILTER (WHERE p.current_status LIKE 'RAC%')::int AS rac,
               count(*) FILTER (WHERE p.current_status LIKE '%WL%')::int AS wl,
               count(*) FILTER (WHERE p.gender = 'M')::int AS male,
               count(*) FILTER (WHERE p.gender = 'F')::int AS female,
               count(*) FILTER (WHERE p.gender = 'T')::int AS transgender,
               count(*) FILTER (WHERE p.age < 12)::int AS children,
               count(*) FILTER (WHERE (p.gender = 'M' AND p.age >= 60) OR (p.gender <> 'M' AND p.age >= 58))::int AS seniors,
               count(*) FILTER (WHERE p.mark = 'O')::int AS turned_up,
               count(*) FILTER (WHERE p.mark = 'NT')::int AS nt,
               count(*) FILTER (WHERE p.mark IS NULL)::int AS not_marked
          FROM passengers p
         WHERE p.run_id = rc.run_id
           AND p.coach_id = rc.coach_id
           AND p.current_status <> 'CAN'
       ) ps
 WHERE tr.train_no = :trainNo
   AND tr.start_date = :startDate::date
   AND (:cls::text IS NULL OR rc.class = :cls)
   AND {{scope}}
 ORDER BY rc.seq
