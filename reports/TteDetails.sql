-- TTE master: who they are, their lobby, masked mobile, HHT devices assigned, and beats worked in the range.
SELECT t.tte_id,
       t.name AS tte_name,
       t.designation,
       t.lobby_code,
       l.name AS lobby_name,
       t.div_code,
       t.zone_code,
       mask_mobile(t.mobile_no) AS mobile_no,
       dv.hht_devices,
       COALESCE(w.beats_worked, 0) AS beats_worked,
       w.last_worked
  FROM ttes t
  JOIN lobbies l ON l.lobby_code = t.lobby_code
  LEFT JOIN (
        SELECT d.assigned_tte_id, string_agg(d.device_id, ', ' ORDER BY d.device_id) AS hht_devices
          FROM devices d
         WHERE d.assigned_tte_id IS NOT NULL
         GROUP BY d.assigned_tte_id
       ) dv ON dv.assigned_tte_id = t.tte_id
  LEFT JOIN (
        SELECT b.tte_id, count(*)::int AS beats_worked, max(tr.start_date) AS last_worked
          FROM train_runs tr
          JOIN beats b ON b.run_id = tr.run_id
         WHERE tr.start_date BETWEEN :start_date::date AND :end_date::date
           AND (:trainNo::text IS NULL OR tr.train_no = :trainNo)
         GROUP BY b.tte_id
       ) w ON w.tte_id = t.tte_id
 WHERE (:zone::text IS NULL OR t.zone_code = :zone)
   AND (:division::text IS NULL OR t.div_code = :division)
   AND (:lobby::text IS NULL OR t.lobby_code = :lobby)
   AND (:tteId::text IS NULL OR t.tte_id = :tteId)
   AND (:trainNo::text IS NULL OR w.tte_id IS NOT NULL)
   AND {{scope}}
 ORDER BY t.lobby_code, t.tte_id
