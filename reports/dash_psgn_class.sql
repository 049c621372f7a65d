-- Passengers of the date per class, from the passenger rollup (migration 014).
SELECT p.class,
       sum(p.passengers)::int AS passengers,
       sum(p.turned_up)::int AS turned_up,
       round(100.0 * sum(p.passengers) / sum(sum(p.passengers)) OVER (), 1) AS share_pct
  FROM rollup_run_passengers p
 WHERE p.start_date = :srcDate::date
   AND {{scope}}
 GROUP BY p.class
 ORDER BY passengers DESC
