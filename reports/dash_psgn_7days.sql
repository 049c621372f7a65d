SELECT d.day::date AS run_date,
       coalesce(x.runs, 0) AS runs,
       coalesce(x.passengers, 0) AS passengers,
       coalesce(x.turned_up, 0) AS turned_up,
       coalesce(x.not_turned_up, 0) AS not_turned_up
  FROM generate_series(:srcDate::date - 6, :srcDate::date, interval '1 day') AS d(day)
  LEFT JOIN (
        SELECT tr.start_date,
               count(DISTINCT tr.run_id)::int AS runs,
               count(*)::int AS passengers,
               (count(*) FILTER (WHERE p.mark = 'O'))::int AS turned_up,
               (count(*) FILTER (WHERE p.mark = 'NT'))::int AS not_turned_up
          FROM passengers p
          JOIN train_runs tr ON tr.run_id = p.run_id
         WHERE tr.start_date BETWEEN :srcDate::date - 6 AND :srcDate::date
           AND p.current_status <> 'CAN'
           AND {{scope}}
         GROUP BY tr.start_date
       ) x ON x.start_date = d.day::date
 ORDER BY d.day
