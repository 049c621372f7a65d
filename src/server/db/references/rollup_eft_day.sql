-- EFTs per IST issue date and division (lobby_code NULL) and per lobby, with ttes_since: element i counts the TTEs
-- with EFTs on the date whose previous EFT date in the division (lobby) is at least i days earlier, or none within 31.
WITH e AS (
  SELECT ist_date(issued_at) AS issue_date, zone_code, div_code, lobby_code, tte_id, payment_mode, total,
         payment_mode <> 'CASH' AND EXISTS (SELECT 1 FROM digital_payments dp WHERE dp.eft_no = efts.eft_no AND dp.status = 'SUCCESS') AS paid FROM efts
), sums AS (
  SELECT issue_date, zone_code, div_code, lobby_code, count(*) AS efts, count(*) FILTER (WHERE payment_mode <> 'CASH') AS digital_efts,
         sum(total) AS total, COALESCE(sum(total) FILTER (WHERE payment_mode = 'CASH'), 0) AS cash,
         COALESCE(sum(total) FILTER (WHERE paid), 0) AS digital,
         COALESCE(sum(total) FILTER (WHERE payment_mode = 'CARD' AND paid), 0) AS card,
         COALESCE(sum(total) FILTER (WHERE payment_mode = 'UPI' AND paid), 0) AS upi
    FROM e GROUP BY GROUPING SETS ((issue_date, zone_code, div_code, lobby_code), (issue_date, zone_code, div_code))
), days AS (
  SELECT DISTINCT issue_date, zone_code, div_code, lobby_code, tte_id FROM e
), gaps AS (
  SELECT t.issue_date, t.zone_code, t.div_code, t.lobby_code,
         COALESCE(t.issue_date - (SELECT max(p.issue_date) FROM days p WHERE p.div_code = t.div_code AND p.lobby_code = t.lobby_code
                                    AND p.tte_id = t.tte_id AND p.issue_date < t.issue_date AND p.issue_date >= t.issue_date - 31), 32) AS gap
    FROM days t
  UNION ALL
  SELECT t.issue_date, t.zone_code, t.div_code, NULL,
         COALESCE(t.issue_date - (SELECT max(p.issue_date) FROM days p WHERE p.div_code = t.div_code
                                    AND p.tte_id = t.tte_id AND p.issue_date < t.issue_date AND p.issue_date >= t.issue_date - 31), 32)
    FROM (SELECT DISTINCT issue_date, zone_code, div_code, tte_id FROM days) t
)
SELECT s.issue_date, s.zone_code, s.div_code, s.lobby_code, s.efts, s.digital_efts, s.total, s.cash, s.digital, s.card, s.upi,
       ARRAY(SELECT count(*) FILTER (WHERE g.gap >= i)::int FROM generate_series(1, 32) i
               LEFT JOIN gaps g ON g.issue_date = s.issue_date AND g.div_code = s.div_code AND g.lobby_code IS NOT DISTINCT FROM s.lobby_code
              GROUP BY i ORDER BY i)
  FROM sums s
