-- EFTs per zone and division issued in an IST date range: count, amount, cash and digital (card + UPI), TTEs.
-- Digital is what was collected (card/UPI EFTs with a SUCCESS payment); unpaid is the rest of the amount: card/UPI
-- EFTs without one.
-- Reads the EFT day rollup (migration 022): a row per (issue date, division) and per (issue date, division, lobby),
-- so what it reads does not grow with the day's trains. Users who see a whole division (or more) get the division
-- rows; lobby users only their lobby's rows (the division rows have no lobby). A TTE counts once in the range, on its
-- first EFT date there: ttes_since[d - start + 1] counts the date's TTEs with no EFT in the division (lobby) between
-- the start and the day before (the dateRange rule keeps ranges within the 32 dates the array covers).
SELECT e.zone_code,
       e.div_code,
       d.name AS div_name,
       sum(e.efts)::int AS eft_count,
       sum(e.ttes_since[e.issue_date - :start_date::date + 1])::int AS ttes,
       sum(e.total) AS amount,
       sum(e.cash) AS cash,
       sum(e.digital) AS digital,
       sum(e.total) - sum(e.cash) - sum(e.digital) AS unpaid,
       sum(e.card) AS card,
       sum(e.upi) AS upi,
       round(100.0 * sum(e.digital_efts) / sum(e.efts), 1) AS digital_pct,
       :start_date::date AS from_date,
       :end_date::date AS to_date
  FROM (SELECT e.*, bool_or(e.lobby_code IS NULL) OVER (PARTITION BY e.issue_date, e.div_code) AS division_visible
          FROM rollup_eft_day e
         WHERE e.issue_date BETWEEN :start_date::date AND :end_date::date
           AND (:zone::text IS NULL OR e.zone_code = :zone)
           AND (:division::text IS NULL OR e.div_code = :division)
           AND {{scope}}) e
  LEFT JOIN divisions d ON d.div_code = e.div_code
 WHERE (e.lobby_code IS NULL) = e.division_visible
 GROUP BY e.zone_code, e.div_code, d.name
 ORDER BY e.zone_code, e.div_code
