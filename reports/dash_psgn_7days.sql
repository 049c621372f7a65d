-- Passengers per run date over the 7 days up to the date, from the passenger rollup (migration 014): a few
-- dozen rows per run instead of every passenger of a week.
SELECT d.day::date AS run_date,
       coalesce(x.runs, 0) AS runs,
       coalesce(x.passengers, 0) AS passengers,
       coalesce(x.turned_up, 0) AS turned_up,
       coalesce(x.not_turned_up, 0) AS not_turned_up
  FROM generate_series(:srcDate::date - 6, :srcDate::date, interval '1 day') AS d(day)
  LEFT JOIN (
        SELECT p.start_date,
               count(DISTINCT p.run_id)::int AS runs,
               sum(p.passengers)::int AS passengers,
               sum(p.turned_up)::int AS turned_up,
               sum(p.not_turned_up)::int AS not_turned_up
          FROM rollup_run_passengers p
         WHERE p.start_date BETWEEN :srcDate::date - 6 AND :srcDate::date
           AND {{scope}}
         GROUP BY p.start_date
       ) x ON x.start_date = d.day::date
 ORDER BY d.day
