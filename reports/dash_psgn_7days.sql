SELECT d.day::date AS run_date,
       coalesce(x.runs, 0) AS runs,
       coalesce(x.passengers, 0) AS passengers,
       coalesce(x.turned_up, 0) AS turned_up,
       coalesce(x.not_turned_up, 0) AS not_turned_up
  FROM generate_series(:srcDate::date - 6, :srcDate::date, interval '1 day') AS d(day)
  LEFT JOIN (
        -- Counted run by run through the passengers_run index: the runs of 7 days are a fifth of the table, and a
        -- scan of all of it (what the planner picks for a join) costs seconds on the large data set.
        SELECT tr.start_date,
               (count(*) FILTER (WHERE ps.passengers > 0))::int AS runs,
               sum(ps.passengers)::int AS passengers,
               sum(ps.turned_up)::int AS turned_up,
               sum(ps.not_turned_up)::int AS not_turned_up
          FROM train_runs tr
          CROSS JOIN LATERAL (
                SELECT count(*) AS passengers,
                       count(*) FILTER (WHERE p.mark = 'O') AS turned_up,
                       count(*) FILTER (WHERE p.mark = 'NT') AS not_turned_up
                  FROM passengers p
                 WHERE p.run_id = tr.run_id
                   AND p.current_status <> 'CAN'
                   AND {{scope}}
               ) ps
         WHERE tr.start_date BETWEEN :srcDate::date - 6 AND :srcDate::date
         GROUP BY tr.start_date
       ) x ON x.start_date = d.day::date
 ORDER BY d.day
